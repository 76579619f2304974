/**
 * Dark and light: the system's choice until the person picks one; the pick (not a secret) is kept
 * in localStorage so it holds across tabs.
 */
import { useState } from 'preact/hooks';

const KEY = 'svc.console.theme';
type Theme = 'light' | 'dark';

function systemTheme(): Theme {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function storedTheme(): Theme | undefined {
  const value = localStorage.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : undefined;
}

export function applyStoredTheme(): void {
  document.documentElement.dataset.theme = storedTheme() ?? systemTheme();
}

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(storedTheme() ?? systemTheme());
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  const toggle = () => {
    localStorage.setItem(KEY, next);
    document.documentElement.dataset.theme = next;
    setTheme(next);
  };
  return (
    <button class="outline secondary icon" title={`Switch to ${next} theme`} aria-label={`Switch to ${next} theme`} onClick={toggle}>
      {theme === 'dark' ? '☀' : '☾'}
    </button>
  );
}
