/**
 * Screens are chosen by the URL's fragment (`#/discover`), so the browser's back button works
 * and a link can be shared; the fragment never holds the credential.
 */
import { useEffect, useState } from 'preact/hooks';

export type Screen = 'discover' | 'indexes' | 'access';
const SCREENS: Screen[] = ['discover', 'indexes', 'access'];

function current(): Screen {
  const name = location.hash.replace(/^#\/?/, '').split('/')[0];
  return SCREENS.find((s) => s === name) ?? 'discover';
}

export function useScreen(): Screen {
  const [screen, setScreen] = useState<Screen>(current());
  useEffect(() => {
    const onChange = () => setScreen(current());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return screen;
}
