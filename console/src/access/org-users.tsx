/**
 * The organisation's users. With `write:org`: a role picker on each row (the change is made at
 * once), removal after a confirmation, and a form to invite a user by the subject their identity
 * provider gives them.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Api } from '../api/index.js';
import { ConfirmDialog, ErrorView, SimpleTable, formatTime, type Column } from '../ui/index.js';

interface OrgUser {
  id: number;
  subject: string;
  role: string;
  created_at: string;
  invited_by: string;
}

interface Props {
  client: Api;
  /** names of the organisation's roles, to choose from */
  roles: string[];
  canManage: boolean;
}

export function OrgUsers({ client, roles, canManage }: Props) {
  const [users, setUsers] = useState<OrgUser[] | undefined>();
  const [loadError, setLoadError] = useState<unknown>();
  const load = useCallback(async () => {
    try {
      setUsers(await client.get<OrgUser[]>('/v1/org/users'));
      setLoadError(undefined);
    } catch (err) {
      setLoadError(err);
    }
  }, [client]);
  useEffect(() => void load(), [load]);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string | undefined>();
  const [removing, setRemoving] = useState<OrgUser | undefined>();
  const [subject, setSubject] = useState('');
  const [role, setRole] = useState('');
  const inviteRole = role || roles.find((r) => r === 'viewer') || roles[0] || '';

  /** Runs a change; on success lists the users again, then says what happened. */
  const change = async (what: () => Promise<unknown>, message: string) => {
    try {
      await what();
      await load();
      setError(undefined);
      setDone(message);
      return true;
    } catch (err) {
      setError(err);
      setDone(undefined);
      return false;
    }
  };
  const setUserRole = (user: OrgUser, to: string) =>
    void change(() => client.put(`/v1/org/users/${user.id}`, { role: to }), `${user.subject} now holds the role ${to}.`);
  const remove = (user: OrgUser) => {
    setRemoving(undefined);
    void change(() => client.del(`/v1/org/users/${user.id}`), `${user.subject} was removed from the organisation.`);
  };
  const invite = async (e: Event) => {
    e.preventDefault();
    const who = subject.trim();
    if (await change(() => client.post('/v1/org/users', { subject: who, role: inviteRole }), `${who} was invited with the role ${inviteRole}.`)) setSubject('');
  };

  const columns: Array<Column<OrgUser>> = [
    ['User', (u) => u.subject],
    [
      'Role',
      (u) =>
        canManage ? (
          <select name="user-role" aria-label={`Role of ${u.subject}`} value={u.role} onChange={(e) => setUserRole(u, e.currentTarget.value)}>
            {(roles.includes(u.role) ? roles : [u.role, ...roles]).map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        ) : (
          u.role
        ),
    ],
    ['Since', (u) => formatTime(Date.parse(u.created_at))],
  ];
  if (canManage) {
    columns.push([
      '',
      (u) => (
        <button class="outline secondary" aria-label={`Remove ${u.subject}`} onClick={() => setRemoving(u)}>
          Remove
        </button>
      ),
    ]);
  }

  return (
    <div class="table-scroll org-users">
      <h4>Users</h4>
      {loadError !== undefined && <ErrorView error={loadError} />}
      {error !== undefined && <ErrorView error={error} />}
      {done !== undefined && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
      <SimpleTable name="org-users" items={users ?? []} rowKey={(u) => u.subject} columns={columns} />
      {canManage && (
        <form class="inline-form invite" onSubmit={invite} aria-label="Invite a user">
          <h4>Invite a user</h4>
          <input name="invite-subject" placeholder="their subject at the identity provider" required value={subject} onInput={(e) => setSubject(e.currentTarget.value)} />
          <select name="invite-role" aria-label="Role" value={inviteRole} onChange={(e) => setRole(e.currentTarget.value)}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <button type="submit" disabled={subject.trim() === '' || inviteRole === ''}>
            Invite
          </button>
        </form>
      )}
      {removing !== undefined && (
        <ConfirmDialog
          title={`Remove ${removing.subject}?`}
          message="They lose their organisation role and what it allowed, from their next request on."
          confirmLabel="Remove"
          onConfirm={() => remove(removing)}
          onCancel={() => setRemoving(undefined)}
        />
      )}
    </div>
  );
}
