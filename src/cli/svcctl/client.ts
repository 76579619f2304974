/**
 * A small client for the /v1 RBAC API: JSON in and out, the API key as a bearer token, and
 * every failure turned into a CliError whose message says what happened and whose exit code
 * says what kind of failure it was.
 */
import { CliError, EXIT_CONFLICT, EXIT_DENIED, EXIT_FAILURE, EXIT_UNREACHABLE, EXIT_USAGE } from './cli-error.js';
import type { SvcctlEnv } from './env.js';

const TIMEOUT_MS = 30_000;

export class HttpStatusError extends CliError {
  constructor(
    message: string,
    exitCode: number,
    readonly status: number,
  ) {
    super(message, exitCode);
  }
}

export class RbacClient {
  constructor(private readonly env: SvcctlEnv) {}

  async request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    if (this.env.apiKey === undefined) {
      throw new CliError('SVC_API_KEY is not set: export the api key (or, for create-admin, the bootstrap key) to use', EXIT_USAGE);
    }
    const url = `${this.env.url}${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.env.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new CliError(`cannot reach svc at ${this.env.url} (${networkReason(err)}); is it running, and is SVC_URL right?`, EXIT_UNREACHABLE);
    }
    const text = await res.text();
    if (!res.ok) throw statusError(method, path, res.status, text);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new CliError(`${method} ${path} answered ${res.status} with a body that is not JSON`, EXIT_FAILURE);
    }
  }
}

function networkReason(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
  const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code === 'ECONNREFUSED' ? 'connection refused' : cause.code;
  return err instanceof Error ? err.message : String(err);
}

function statusError(method: string, path: string, status: number, text: string): HttpStatusError {
  let reason = text.trim().slice(0, 500);
  try {
    const body = JSON.parse(text) as { error?: { reason?: unknown } };
    if (typeof body.error?.reason === 'string') reason = body.error.reason;
  } catch {
    // not an ES error body: show the text as it is
  }
  const prefix = `${method} ${path} failed with ${status}`;
  if (status === 401) return new HttpStatusError(`${prefix}: ${reason} (check SVC_API_KEY)`, EXIT_DENIED, status);
  if (status === 403) return new HttpStatusError(`${prefix}: ${reason}`, EXIT_DENIED, status);
  if (status === 409) return new HttpStatusError(`${prefix}: ${reason}`, EXIT_CONFLICT, status);
  return new HttpStatusError(`${prefix}: ${reason}`, EXIT_FAILURE, status);
}
