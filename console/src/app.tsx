/**
 * The shell: signs in (or finds the service open), then shows the navigation for the screens the
 * key may use, and the chosen screen. Signing out forgets the key.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, clearCredential, loadCredential, probeCapabilities, type Api, type Capabilities } from './api/index.js';
import { SignIn } from './sign-in.js';
import { Discover } from './discover/index.js';
import { Indexes } from './indexes/index.js';
import { Access } from './access/index.js';
import { useScreen, type Screen } from './routes.js';
import { ErrorView, ThemeToggle } from './ui/index.js';

interface Session {
  client: Api;
  caps: Capabilities;
}

export function App() {
  const [session, setSession] = useState<Session | undefined>();
  const [starting, setStarting] = useState(true);
  const [startError, setStartError] = useState<unknown>();

  // a key from earlier in this tab, or no key at all when the service runs without access control
  useEffect(() => {
    const stored = loadCredential();
    const attempt = async () => {
      try {
        const client = api(stored);
        const caps = await probeCapabilities(client, stored === undefined);
        setSession({ client, caps });
      } catch (err) {
        if (!(err instanceof ApiError && err.unauthenticated)) setStartError(err);
        if (stored !== undefined) clearCredential();
      } finally {
        setStarting(false);
      }
    };
    void attempt();
  }, []);

  const signOut = () => {
    clearCredential();
    setSession(undefined);
  };

  if (starting) return <main class="container" aria-busy="true" />;
  if (session === undefined) {
    return (
      <>
        {startError !== undefined && (
          <main class="container">
            <ErrorView error={startError} />
          </main>
        )}
        <SignIn onSignedIn={(client, caps) => setSession({ client, caps })} />
      </>
    );
  }
  return <Shell session={session} onSignOut={signOut} />;
}

function Shell({ session, onSignOut }: { session: Session; onSignOut(): void }) {
  const screen = useScreen();
  const { caps, client } = session;
  const allowed: Record<Screen, boolean> = { discover: caps.data, indexes: caps.data, access: caps.security || caps.org.has('read:org') };
  const links: Array<[Screen, string]> = [
    ['discover', 'Discover'],
    ['indexes', 'Indexes'],
    ['access', 'Access control'],
  ];
  return (
    <>
      <header class="topbar">
        <nav class="container-fluid">
          <ul>
            <li>
              <strong class="brand">svc</strong>
            </li>
            {links
              .filter(([name]) => allowed[name])
              .map(([name, label]) => (
                <li key={name}>
                  <a href={`#/${name}`} aria-current={screen === name ? 'page' : undefined}>
                    {label}
                  </a>
                </li>
              ))}
          </ul>
          <ul>
            {!caps.open && caps.username !== undefined && (
              <li class="whoami muted" title="signed in as">
                {caps.username}
                {caps.orgRole !== undefined && ` · ${caps.orgRole}`}
              </li>
            )}
            <li>{caps.open ? <small class="muted">access control off</small> : <button class="outline secondary" onClick={onSignOut}>Sign out</button>}</li>
            <li>
              <ThemeToggle />
            </li>
          </ul>
        </nav>
      </header>
      <main class="container-fluid">
        {!allowed[screen] && (
          <p class="notice unavailable" data-unavailable={screen}>
            This key may not use this screen. {links.some(([name]) => allowed[name]) ? 'Choose one above.' : ''}
          </p>
        )}
        {allowed[screen] && screen === 'discover' && <Discover client={client} />}
        {allowed[screen] && screen === 'indexes' && <Indexes client={client} />}
        {allowed[screen] && screen === 'access' && <Access client={client} caps={caps} />}
      </main>
    </>
  );
}
