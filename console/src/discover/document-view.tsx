/** One document: its fields by dotted name, and its JSON as stored. Escape closes it. */
import { useEffect } from 'preact/hooks';
import { flatten, hitTime, type Hit } from './search-response.js';
import { formatTime } from '../ui/index.js';

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function DocumentView({ hit, onClose }: { hit: Hit; onClose(): void }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  const ts = hitTime(hit);
  return (
    <div class="doc-panel" role="dialog" aria-label="Document">
      <div class="toolbar">
        <h3 style={{ margin: 0, flex: 1 }}>Document</h3>
        <button class="outline secondary" onClick={onClose} aria-label="Close document">
          Close
        </button>
      </div>
      <p class="muted">
        {hit._index} · {hit._id}
        {ts !== undefined && ` · ${formatTime(ts)}`}
      </p>
      <table class="doc-fields">
        <tbody>
          <tr>
            <td>_index</td>
            <td>{hit._index}</td>
          </tr>
          <tr>
            <td>_id</td>
            <td>{hit._id}</td>
          </tr>
          {flatten(hit._source).map(([name, value]) => (
            <tr key={name} data-field={name}>
              <td>{name}</td>
              <td>{show(value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <details>
        <summary>JSON</summary>
        <pre>{JSON.stringify(hit._source, null, 2)}</pre>
      </details>
    </div>
  );
}
