/**
 * API keys: the active keys (never their secrets), a form to create one for a role, whose key is
 * shown once, right after, and revocation for a key that may revoke.
 */
import { useState } from 'preact/hooks';
import type { Api } from '../api/index.js';
import { ErrorView, formatTime } from '../ui/index.js';
import { KeyShownOnce, type KeyValue } from './key-shown-once.js';
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

/** `canRevoke`: the key holds manage_security (the bootstrap key may list and create only). */
export function ApiKeys({ client, canRevoke }: { client: Api; canRevoke: boolean }) {
  const keys = useRecords<ApiKey>(client, '/v1/api_keys');
  const roles = useRecords<Role>(client, '/v1/roles');
  const [name, setName] = useState('');
  const [role, setRole] = useState('');
  const [created, setCreated] = useState<KeyValue | undefined>();
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
        canDelete={canRevoke}
        deleteLabel="Revoke"
        deleteMessage="The key stops working at once; whoever uses it is refused from then on."
      />
      <div>
        {created !== undefined && <KeyShownOnce created={created} verb="created" onDone={() => setCreated(undefined)} />}
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
