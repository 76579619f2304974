/**
 * The API keys tools use for data (`/v1/org/api_keys`, for `write:api_key`): rotating one makes a
 * new value, shown once, and the old value stops working at once. Administrators' keys are not
 * listed here; they stay with the API keys tab.
 */
import { useState } from 'preact/hooks';
import type { Api } from '../api/index.js';
import { ConfirmDialog, ErrorView, SimpleTable, formatTime, useLoad } from '../ui/index.js';
import { KeyShownOnce, type KeyValue } from './key-shown-once.js';

interface OrgKey {
  id: number;
  name: string;
  role: string;
  created_at: string;
}

export function OrgApiKeys({ client }: { client: Api }) {
  const keys = useLoad(() => client.get<OrgKey[]>('/v1/org/api_keys'), [client]);
  const [rotating, setRotating] = useState<OrgKey | undefined>();
  const [rotated, setRotated] = useState<KeyValue | undefined>();
  const [error, setError] = useState<unknown>();

  const rotate = async (key: OrgKey) => {
    setRotating(undefined);
    try {
      const next = await client.post<OrgKey & { api_key: string }>(`/v1/org/api_keys/${key.id}/rotate`);
      setRotated({ name: next.name, api_key: next.api_key });
      setError(undefined);
      keys.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <div class="table-scroll org-keys">
      {rotated !== undefined && <KeyShownOnce created={rotated} verb="rotated" onDone={() => setRotated(undefined)} />}
      {keys.error !== undefined && <ErrorView error={keys.error} />}
      {error !== undefined && <ErrorView error={error} />}
      {keys.value !== undefined && keys.value.length === 0 && <p class="muted">No data keys yet.</p>}
      {keys.value !== undefined && keys.value.length > 0 && (
        <SimpleTable
          name="org-api-keys"
          items={keys.value}
          rowKey={(k) => k.name}
          columns={[
            ['Name', (k) => k.name],
            ['Role', (k) => k.role],
            ['Created', (k) => formatTime(Date.parse(k.created_at))],
            [
              '',
              (k) => (
                <button class="outline secondary" aria-label={`Rotate ${k.name}`} onClick={() => setRotating(k)}>
                  Rotate
                </button>
              ),
            ],
          ]}
        />
      )}
      <p class="muted">Keys whose role holds a database action (administrators' keys) are managed in the API keys tab.</p>
      {rotating !== undefined && (
        <ConfirmDialog
          title={`Rotate ${rotating.name}?`}
          message="A new value is made and shown once; the old value stops working at once, so update the tools that use it."
          confirmLabel="Rotate"
          onConfirm={() => void rotate(rotating)}
          onCancel={() => setRotating(undefined)}
        />
      )}
    </div>
  );
}
