/** A new API key's value, shown once right after it was made (created or rotated), with a copy button. */
export interface KeyValue {
  name: string;
  api_key: string;
}

export function KeyShownOnce({ created, verb, onDone }: { created: KeyValue; verb: string; onDone(): void }) {
  return (
    <div class="api-key-once notice" role="status">
      <p>
        The key <strong>{created.name}</strong> was {verb}. Copy it now: it is not shown again.
      </p>
      <p>
        <code data-api-key>{created.api_key}</code>
      </p>
      <div class="toolbar">
        <button class="outline" onClick={() => void navigator.clipboard?.writeText(created.api_key)}>
          Copy
        </button>
        <button class="outline secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
