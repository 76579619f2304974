/**
 * Roles: what each grants (database actions, index patterns with their actions), a form for a
 * role with one index grant, and deletion (the service refuses it while keys or mappings use it).
 */
import { useState } from 'preact/hooks';
import type { Api } from '../api/index.js';
import { ErrorView } from '../ui/index.js';
import { RecordTable, useCreateForm, useRecords } from './record-table.js';
import { splitList } from './split-list.js';

interface Role {
  id: number;
  name: string;
  database: string[];
  indexes: Array<{ names: string[]; permissions: string[] }>;
}

const DATABASE_ACTIONS = ['manage_security', 'monitor'];
const INDEX_ACTIONS = ['read', 'write', 'delete'];

function toggle(list: string[], item: string): string[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}

export function Roles({ client }: { client: Api }) {
  const roles = useRecords<Role>(client, '/v1/roles');
  const [name, setName] = useState('');
  const [database, setDatabase] = useState<string[]>([]);
  const [patterns, setPatterns] = useState('');
  const [actions, setActions] = useState<string[]>(['read']);
  const { error, submit } = useCreateForm(roles, async () => {
    const names = splitList(patterns);
    const indexes = names.length === 0 ? [] : [{ names, permissions: actions }];
    await client.post('/v1/roles', { name: name.trim(), database, indexes });
    setName('');
    setPatterns('');
  });

  return (
    <div class="split">
      <RecordTable
        client={client}
        path="/v1/roles"
        records={roles}
        noun="roles"
        columns={[
          ['Name', (r) => r.name],
          ['Database', (r) => r.database.join(', ') || '—'],
          ['Indexes', (r) => r.indexes.map((g) => `${g.names.join(', ')}: ${g.permissions.join(', ')}`).join('; ') || '—'],
        ]}
        deleteLabel="Delete"
        deleteMessage="The role is removed. The service refuses while an API key or a role mapping uses it."
      />
      <form class="inline-form" onSubmit={submit} aria-label="Create a role">
        <h4>Create a role</h4>
        <input name="role-name" placeholder="name, e.g. logs-reader" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <fieldset class="checks">
          <legend>Database actions</legend>
          {DATABASE_ACTIONS.map((a) => (
            <label key={a}>
              <input type="checkbox" checked={database.includes(a)} onChange={() => setDatabase(toggle(database, a))} />
              {a}
            </label>
          ))}
        </fieldset>
        <input name="role-patterns" placeholder="index patterns, e.g. logs-*, app" value={patterns} onInput={(e) => setPatterns(e.currentTarget.value)} />
        <fieldset class="checks">
          <legend>Index actions</legend>
          {INDEX_ACTIONS.map((a) => (
            <label key={a}>
              <input type="checkbox" checked={actions.includes(a)} onChange={() => setActions(toggle(actions, a))} />
              {a}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={name.trim() === ''}>
          Create role
        </button>
        {error !== undefined && <ErrorView error={error} />}
      </form>
    </div>
  );
}
