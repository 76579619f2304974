/**
 * The organisation account as its member sees it: name, users with their one role each, and the
 * roles with their permissions (`/v1/org`). A member whose role holds `write:org` also invites
 * users, changes their roles and removes them; the service applies the rules on who may hand out
 * which role, and its refusal is shown.
 */
import type { Api } from '../api/index.js';
import { ErrorView, SimpleTable, formatTime, useLoad } from '../ui/index.js';
import { OrgUsers } from './org-users.js';

interface Account {
  name: string;
  created_at: string;
  users: number;
}

export interface OrgRole {
  name: string;
  permissions: string[];
  indexes: string[];
  default: boolean;
}

export function Organisation({ client, canManage }: { client: Api; canManage: boolean }) {
  const account = useLoad(() => client.get<Account>('/v1/org'), [client]);
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
        <OrgUsers client={client} roles={(roles.value ?? []).map((r) => r.name)} canManage={canManage} />
        <div class="table-scroll">
          <h4>Roles</h4>
          {roles.error !== undefined && <ErrorView error={roles.error} />}
          <SimpleTable
            name="org-roles"
            items={roles.value ?? []}
            rowKey={(r) => r.name}
            columns={[
              ['Role', (r) => r.name],
              ['Permissions', (r) => r.permissions.join(', ') || '—'],
              ['Indexes', (r) => r.indexes.join(', ')],
            ]}
          />
        </div>
      </div>
    </div>
  );
}
