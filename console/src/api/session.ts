/**
 * The credential lives in this tab's sessionStorage only: it goes with the tab, is not shared with
 * other tabs, and never appears in a URL (URLs end up in histories and proxy logs).
 */
const KEY = 'svc.console.credential';

export function loadCredential(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function saveCredential(credential: string): void {
  sessionStorage.setItem(KEY, credential);
}

export function clearCredential(): void {
  sessionStorage.removeItem(KEY);
}
