/** Role mappings: an identity provider's role name → service roles, for users signing in with a token. */
import { useState } from 'preact/hooks';
import type { Api } from '../api/index.js';
import { ErrorView, formatTime } from '../ui/index.js';
import { RecordTable, useCreateForm, useRecords } from './record-table.js';
import { splitList } from './split-list.js';

interface RoleMapping {
  id: number;
  name: string;
  roles: string[];
  created_at: string;
}

/** `canChange`: the key holds manage_security; otherwise the mappings are only listed. */
export function RoleMappings({ client, canChange }: { client: Api; canChange: boolean }) {
  const mappings = useRecords<RoleMapping>(client, '/v1/role_mappings');
  const [name, setName] = useState('');
  const [roles, setRoles] = useState('');
  const { error, submit } = useCreateForm(mappings, async () => {
    await client.post('/v1/role_mappings', { name: name.trim(), roles: splitList(roles) });
    setName('');
    setRoles('');
  });

  return (
    <div class="split">
      <RecordTable
        client={client}
        path="/v1/role_mappings"
        records={mappings}
        noun="role mappings"
        columns={[
          ['Provider role', (m) => m.name],
          ['Service roles', (m) => m.roles.join(', ')],
          ['Created', (m) => formatTime(Date.parse(m.created_at))],
        ]}
        canDelete={canChange}
        deleteLabel="Delete"
        deleteMessage="Users whose token carries this provider role lose the service roles it gave them."
      />
      {canChange && (
        <form class="inline-form" onSubmit={submit} aria-label="Create a role mapping">
          <h4>Map a provider role</h4>
          <input name="mapping-name" placeholder="provider role, e.g. idp-admins" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <input name="mapping-roles" placeholder="service roles, e.g. admin, logs-reader" required value={roles} onInput={(e) => setRoles(e.currentTarget.value)} />
          <button type="submit" disabled={name.trim() === '' || roles.trim() === ''}>
            Create mapping
          </button>
          {error !== undefined && <ErrorView error={error} />}
        </form>
      )}
    </div>
  );
}
