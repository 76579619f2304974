/**
 * Sign-in with an API key (or an identity provider's token): checked against the service before
 * it is kept, and kept in this tab's sessionStorage only.
 */
import { useState } from 'preact/hooks';
import { api, probeCapabilities, saveCredential, type Api, type Capabilities } from './api/index.js';
import { ErrorView } from './ui/index.js';

export function SignIn({ onSignedIn }: { onSignedIn(client: Api, caps: Capabilities): void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const client = api(key.trim());
      const caps = await probeCapabilities(client, false);
      saveCredential(key.trim());
      onSignedIn(client, caps);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="container sign-in">
      <article>
        <h1>svc console</h1>
        <p>Sign in with an API key. It is kept in this browser tab only, until you sign out or close the tab.</p>
        <form onSubmit={submit}>
          <label>
            API key
            <input
              name="api-key"
              type="password"
              autoComplete="off"
              placeholder="svc_…"
              required
              value={key}
              onInput={(e) => setKey(e.currentTarget.value)}
            />
          </label>
          <button type="submit" aria-busy={busy} disabled={busy || key.trim() === ''}>
            Sign in
          </button>
        </form>
        {error !== undefined && <ErrorView error={error} />}
      </article>
    </main>
  );
}
