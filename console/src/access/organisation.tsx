/**
 * The organisation account as its member sees it: name, users with their roles, and the roles
 * with their permissions (`/v1/org`, read-only here).
 */
import type { Api } from '../api/index.js';
import { ErrorView, formatTime, useLoad } from '../ui/index.js';

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
          <table data-org="users">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Role</th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {(users.value ?? []).map((u) => (
                <tr key={u.id} data-subject={u.subject}>
                  <td>{u.subject}</td>
                  <td>{u.role}</td>
                  <td>{formatTime(Date.parse(u.created_at))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div class="table-scroll">
          <h4>Roles</h4>
          {roles.error !== undefined && <ErrorView error={roles.error} />}
          <table data-org="roles">
            <thead>
              <tr>
                <th scope="col">Role</th>
                <th scope="col">Permissions</th>
                <th scope="col">Indexes</th>
              </tr>
            </thead>
            <tbody>
              {(roles.value ?? []).map((r) => (
                <tr key={r.name} data-role={r.name}>
                  <td>{r.name}</td>
                  <td>{r.permissions.join(', ')}</td>
                  <td>{r.indexes.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}
