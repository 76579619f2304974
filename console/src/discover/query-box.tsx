/**
 * The query-string box. A syntax error the service reports with a position is drawn under the
 * query with that character marked. Keys: `/` anywhere focuses the box, Enter runs, Escape
 * leaves it, ArrowUp and ArrowDown walk back through the queries run in this tab.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

export interface QueryError {
  query: string;
  position: number;
  reason: string;
}

interface Props {
  value: string;
  error: QueryError | undefined;
  history: string[];
  onInput(value: string): void;
  onRun(): void;
}

export function QueryBox({ value, error, history, onInput, onRun }: Props) {
  const input = useRef<HTMLInputElement>(null);
  // how far back in the history the arrows have gone; -1: the text being typed
  const [back, setBack] = useState(-1);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      const typing = target.closest('input, textarea, select, [contenteditable]') !== null;
      if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        input.current?.focus();
        input.current?.select();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      setBack(-1);
      onRun();
    } else if (e.key === 'Escape') {
      input.current?.blur();
    } else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && history.length > 0) {
      e.preventDefault();
      const next = e.key === 'ArrowUp' ? Math.min(back + 1, history.length - 1) : Math.max(back - 1, -1);
      setBack(next);
      onInput(next === -1 ? '' : history[history.length - 1 - next]!);
    }
  };

  const shown = error !== undefined && error.query === value;
  return (
    <div class="query-box">
      <input
        ref={input}
        name="query"
        type="search"
        placeholder="Search _line, or field:value, AND/OR/NOT, &quot;phrases&quot;  (press / to focus)"
        aria-label="Query"
        aria-invalid={shown ? 'true' : undefined}
        aria-describedby={shown ? 'query-error' : undefined}
        autoComplete="off"
        spellcheck={false}
        value={value}
        onInput={(e) => {
          setBack(-1);
          onInput(e.currentTarget.value);
        }}
        onKeyDown={onKeyDown}
      />
      {shown && <ErrorAt error={error} />}
    </div>
  );
}

/** The query with the character at the error's position marked, and the reason below it. */
function ErrorAt({ error }: { error: QueryError }) {
  const { query, position } = error;
  const at = Math.min(Math.max(position, 0), query.length);
  return (
    <div id="query-error" class="query-error" role="alert" data-position={at}>
      <pre>
        {query.slice(0, at)}
        <span class="at">{query.slice(at, at + 1) || ' '}</span>
        {query.slice(at + 1)}
        {'\n'}
        {' '.repeat(at)}^ character {at}
      </pre>
      <p>{error.reason}</p>
    </div>
  );
}
