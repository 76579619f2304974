/**
 * API keys: the active keys (never their secrets), a form to create one for a role, whose key is
 * shown once, right after, and revocation.
 */
import { useState } from 'preact/hooks';
import type { Api } from '../api/index.js';
import { ErrorView, formatTime } from '../ui/index.js';
import { RecordTable, useCreateForm, useRecords } from './record-table.js';

interface ApiKey {
  id: number;
  name: string;
  role: string;
  created_at: string;
}

interface Role {
  id: number;
  name: string;
}

export function ApiKeys({ client }: { client: Api }) {
  const keys = useRecords<ApiKey>(client, '/v1/api_keys');
  const roles = useRecords<Role>(client, '/v1/roles');
  const [name, setName] = useState('');
  const [role, setRole] = useState('');
  const [created, setCreated] = useState<{ name: string; api_key: string } | undefined>();
  const chosenRole = role || roles.value?.[0]?.name || '';
  const { error, submit } = useCreateForm(keys, async () => {
    const key = await client.post<ApiKey & { api_key: string }>('/v1/api_keys', { name: name.trim(), role: chosenRole });
    setCreated({ name: key.name, api_key: key.api_key });
    setName('');
  });

  return (
    <div class="split">
      <RecordTable
        client={client}
        path="/v1/api_keys"
        records={keys}
        noun="api keys"
        columns={[
          ['Name', (k) => k.name],
          ['Role', (k) => k.role],
          ['Created', (k) => formatTime(Date.parse(k.created_at))],
        ]}
        deleteLabel="Revoke"
        deleteMessage="The key stops working at once; whoever uses it is refused from then on."
      />
      <div>
        {created !== undefined && (
          <div class="api-key-once notice" role="status">
            <p>
              The key <strong>{created.name}</strong>. Copy it now: it is not shown again.
            </p>
            <p>
              <code data-api-key>{created.api_key}</code>
            </p>
            <div class="toolbar">
              <button class="outline" onClick={() => void navigator.clipboard?.writeText(created.api_key)}>
                Copy
              </button>
              <button class="outline secondary" onClick={() => setCreated(undefined)}>
                Done
              </button>
            </div>
          </div>
        )}
        <form class="inline-form" onSubmit={submit} aria-label="Create an API key">
          <h4>Create an API key</h4>
          <input name="key-name" placeholder="name, e.g. fluent-bit" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <select name="key-role" aria-label="Role" value={chosenRole} onChange={(e) => setRole(e.currentTarget.value)}>
            {(roles.value ?? []).map((r) => (
              <option key={r.id} value={r.name}>
                {r.name}
              </option>
            ))}
          </select>
          <button type="submit" disabled={name.trim() === '' || chosenRole === ''}>
            Create key
          </button>
          {error !== undefined && <ErrorView error={error} />}
        </form>
      </div>
    </div>
  );
}
