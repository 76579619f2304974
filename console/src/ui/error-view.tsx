/** A failed call, told apart as a person needs: not signed in (401), not allowed (403), or broken. */
import { ApiError } from '../api/index.js';

export function ErrorView({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.unauthenticated) {
    return (
      <p class="error-box" role="alert" data-status="401">
        <strong>401 — not signed in.</strong> The service does not accept this key: {error.reason}
      </p>
    );
  }
  if (error instanceof ApiError && error.forbidden) {
    return (
      <p class="error-box" role="alert" data-status="403">
        <strong>403 — not allowed.</strong> This key may not do this: {error.reason}
      </p>
    );
  }
  const message = error instanceof ApiError ? `${error.status} ${error.type}: ${error.reason}` : String(error);
  return (
    <p class="error-box" role="alert" data-status={error instanceof ApiError ? String(error.status) : 'error'}>
      {message}
    </p>
  );
}
