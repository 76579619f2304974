/**
 * The index list is what `_cat/indices` answers this key: the indexes it may read. Delete is
 * offered on those the service says the key may delete (asked once per list); the service still
 * decides the call itself.
 */
import { useState } from 'preact/hooks';
import { indexesWith, type Api } from '../api/index.js';
import { ConfirmDialog, ErrorView, formatBytes, formatCount, useLoad } from '../ui/index.js';
import { MappingView } from './mapping-view.js';

interface CatRow {
  index: string;
  health: string;
  'docs.count': string;
  'store.size': string;
}

export function Indexes({ client }: { client: Api }) {
  const list = useLoad(() => client.get<CatRow[]>('/_cat/indices?format=json&bytes=b&s=index'), [client]);
  const names = (list.value ?? []).map((row) => row.index);
  const deletable = useLoad(() => indexesWith(client, names, 'delete'), [client, names.join(',')]);
  const [selected, setSelected] = useState<string | undefined>();
  const [deleting, setDeleting] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<{ error?: unknown; deleted?: string }>({});

  const remove = async (name: string) => {
    setDeleting(undefined);
    try {
      await client.del(`/${encodeURIComponent(name)}`);
      setOutcome({ deleted: name });
      if (selected === name) setSelected(undefined);
      list.reload();
    } catch (error) {
      setOutcome({ error });
    }
  };

  return (
    <section>
      <h2>Indexes</h2>
      {outcome.deleted !== undefined && <p class="notice">Index {outcome.deleted} was deleted.</p>}
      {outcome.error !== undefined && <ErrorView error={outcome.error} />}
      {list.error !== undefined && <ErrorView error={list.error} />}
      {deletable.error !== undefined && <ErrorView error={deletable.error} />}
      <div class="split">
        <div class="table-scroll">
          {list.value !== undefined && list.value.length === 0 && <p class="muted">No index this key may read.</p>}
          {list.value !== undefined && list.value.length > 0 && (
            <table class="index-list" aria-busy={deletable.loading ? 'true' : 'false'}>
              <thead>
                <tr>
                  <th scope="col">Index</th>
                  <th scope="col" class="num">
                    Documents
                  </th>
                  <th scope="col" class="num">
                    Size
                  </th>
                  <th scope="col" />
                </tr>
              </thead>
              <tbody>
                {list.value.map((row) => (
                  <tr key={row.index} data-index={row.index}>
                    <td>
                      <a href="#/indexes" aria-current={selected === row.index ? 'true' : undefined} onClick={(e) => (e.preventDefault(), setSelected(row.index))}>
                        {row.index}
                      </a>
                    </td>
                    <td class="num">{formatCount(Number(row['docs.count']))}</td>
                    <td class="num">{formatBytes(Number(row['store.size']))}</td>
                    <td>
                      {deletable.value?.has(row.index) === true && (
                        <button class="outline secondary" aria-label={`Delete ${row.index}`} onClick={() => setDeleting(row.index)}>
                          Delete
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <div>{selected !== undefined && <MappingView client={client} index={selected} />}</div>
      </div>
      {deleting !== undefined && (
        <ConfirmDialog
          title={`Delete ${deleting}?`}
          message="Every document of this index is removed. This cannot be undone."
          typeToConfirm={deleting}
          confirmLabel="Delete index"
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(undefined)}
        />
      )}
    </section>
  );
}
