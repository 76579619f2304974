/** State of one API call that a screen shows: loading, its value, or its error; `reload` calls again. */
import { useCallback, useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  value: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ value: T | undefined; error: unknown; loading: boolean }>({ value: undefined, error: undefined, loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (value) => current && setState({ value, error: undefined, loading: false }),
      (error: unknown) => current && setState({ value: undefined, error, loading: false }),
    );
    return () => {
      current = false;
    };
    // the caller lists what the load depends on; `load` itself is a new closure every render
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
}
