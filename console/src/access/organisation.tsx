/**
 * The organisation account as its member sees it: name, users with their roles, and the roles
 * with their permissions (`/v1/org`, read-only here).
 */
import type { Api } from '../api/index.js';
import { ErrorView, SimpleTable, formatTime, useLoad } from '../ui/index.js';

interface Account {
  name: string;
  created_at: string;
  users: number;
}
interface OrgUser {
  id: number;
  subject: string;
  role: string;
  created_at: string;
}
interface OrgRole {
  name: string;
  permissions: string[];
  indexes: string[];
  default: boolean;
}

export function Organisation({ client }: { client: Api }) {
  const account = useLoad(() => client.get<Account>('/v1/org'), [client]);
  const users = useLoad(() => client.get<OrgUser[]>('/v1/org/users'), [client]);
  const roles = useLoad(() => client.get<OrgRole[]>('/v1/org/roles'), [client]);
  return (
    <div>
      {account.error !== undefined && <ErrorView error={account.error} />}
      {account.value !== undefined && (
        <p class="org-name">
          Organisation <strong>{account.value.name}</strong>, opened {formatTime(Date.parse(account.value.created_at))}.
        </p>
      )}
      <div class="split">
        <div class="table-scroll">
          <h4>Users</h4>
          {users.error !== undefined && <ErrorView error={users.error} />}
          <SimpleTable
            name="org-users"
            items={users.value ?? []}
            rowKey={(u) => u.subject}
            columns={[
              ['User', (u) => u.subject],
              ['Role', (u) => u.role],
              ['Since', (u) => formatTime(Date.parse(u.created_at))],
            ]}
          />
        </div>
        <div class="table-scroll">
          <h4>Roles</h4>
          {roles.error !== undefined && <ErrorView error={roles.error} />}
          <SimpleTable
            name="org-roles"
            items={roles.value ?? []}
            rowKey={(r) => r.name}
            columns={[
              ['Role', (r) => r.name],
              ['Permissions', (r) => r.permissions.join(', ')],
              ['Indexes', (r) => r.indexes.join(', ')],
            ]}
          />
        </div>
      </div>
    </div>
  );
}
