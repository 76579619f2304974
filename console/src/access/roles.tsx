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

interface ChecksProps {
  legend: string;
  name: string;
  options: string[];
  chosen: string[];
  onChange(chosen: string[]): void;
}

/** A set of checkboxes choosing some of `options`. */
function Checks({ legend, name, options, chosen, onChange }: ChecksProps) {
  const toggle = (item: string) => onChange(chosen.includes(item) ? chosen.filter((x) => x !== item) : [...chosen, item]);
  return (
    <fieldset class="checks">
      <legend>{legend}</legend>
      {options.map((a) => (
        <label key={a}>
          <input type="checkbox" name={name} value={a} checked={chosen.includes(a)} onChange={() => toggle(a)} />
          {a}
        </label>
      ))}
    </fieldset>
  );
}

/** `canDelete`: the key holds manage_security (the bootstrap key may list and create only). */
export function Roles({ client, canDelete }: { client: Api; canDelete: boolean }) {
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
        canDelete={canDelete}
        deleteLabel="Delete"
        deleteMessage="The role is removed. The service refuses while an API key or a role mapping uses it."
      />
      <form class="inline-form" onSubmit={submit} aria-label="Create a role">
        <h4>Create a role</h4>
        <input name="role-name" placeholder="name, e.g. logs-reader" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Checks legend="Database actions" name="database" options={DATABASE_ACTIONS} chosen={database} onChange={setDatabase} />
        <input name="role-patterns" placeholder="index patterns, e.g. logs-*, app" value={patterns} onInput={(e) => setPatterns(e.currentTarget.value)} />
        <Checks legend="Index actions" name="actions" options={INDEX_ACTIONS} chosen={actions} onChange={setActions} />
        <button type="submit" disabled={name.trim() === ''}>
          Create role
        </button>
        {error !== undefined && <ErrorView error={error} />}
      </form>
    </div>
  );
}
