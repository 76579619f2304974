/**
 * A list of /v1 records (roles, keys, mappings) with, for a key that may delete them, a delete
 * button on each row that asks first; columns are given by the caller.
 */
import { useState } from 'preact/hooks';
import type { Api } from '../api/index.js';
import { ConfirmDialog, ErrorView, SimpleTable, useLoad, type Column, type Loaded } from '../ui/index.js';

export interface RecordWithId {
  id: number;
  name: string;
}

interface Props<T extends RecordWithId> {
  client: Api;
  /** e.g. `/v1/roles`: the list is GET on it, a delete is DELETE on `<path>/<id>` */
  path: string;
  records: Loaded<T[]>;
  noun: string;
  columns: Array<Column<T>>;
  deleteLabel: string;
  deleteMessage: string;
  /** whether the key may delete these records: without it no delete button is shown */
  canDelete: boolean;
}

export function RecordTable<T extends RecordWithId>({ client, path, records, noun, columns, deleteLabel, deleteMessage, canDelete }: Props<T>) {
  const [pending, setPending] = useState<T | undefined>();
  const [error, setError] = useState<unknown>();
  const remove = async (record: T) => {
    setPending(undefined);
    try {
      await client.del(`${path}/${record.id}`);
      setError(undefined);
      records.reload();
    } catch (err) {
      setError(err);
    }
  };
  const deleteColumn: Column<T> = [
    '',
    (record) => (
      <button class="outline secondary" aria-label={`${deleteLabel} ${record.name}`} onClick={() => setPending(record)}>
        {deleteLabel}
      </button>
    ),
  ];
  return (
    <div class="table-scroll">
      {records.error !== undefined && <ErrorView error={records.error} />}
      {error !== undefined && <ErrorView error={error} />}
      {records.value !== undefined && records.value.length === 0 && <p class="muted">No {noun} yet.</p>}
      {records.value !== undefined && records.value.length > 0 && (
        <SimpleTable
          name={noun}
          items={records.value}
          rowKey={(record) => record.name}
          columns={canDelete ? [...columns, deleteColumn] : columns}
        />
      )}
      {pending !== undefined && (
        <ConfirmDialog
          title={`${deleteLabel} ${pending.name}?`}
          message={deleteMessage}
          confirmLabel={deleteLabel}
          onConfirm={() => void remove(pending)}
          onCancel={() => setPending(undefined)}
        />
      )}
    </div>
  );
}

/** The records at `path`, loaded with the key. */
export function useRecords<T>(client: Api, path: string): Loaded<T[]> {
  return useLoad(() => client.get<T[]>(path), [client, path]);
}

/** A create form's submit: runs `create`, then lists `records` again; a refusal is kept to show. */
export function useCreateForm(records: Loaded<unknown[]>, create: () => Promise<void>): { error: unknown; submit(e: Event): Promise<void> } {
  const [error, setError] = useState<unknown>();
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await create();
      setError(undefined);
      records.reload();
    } catch (err) {
      setError(err);
    }
  };
  return { error, submit };
}
