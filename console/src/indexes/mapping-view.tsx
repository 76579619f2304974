/** One index's fields and their types, from `GET /{index}/_mapping`, flattened to dotted names. */
import { mappingFields, type Api, type MappingResponse } from '../api/index.js';
import { ErrorView, SimpleTable, useLoad } from '../ui/index.js';

export function MappingView({ client, index }: { client: Api; index: string }) {
  const mapping = useLoad(() => client.get<MappingResponse>(`/${encodeURIComponent(index)}/_mapping`), [client, index]);
  return (
    <article class="mapping" data-mapping-of={index}>
      <h3>Mapping of {index}</h3>
      {mapping.error !== undefined && <ErrorView error={mapping.error} />}
      {mapping.loading && <p aria-busy="true" />}
      <SimpleTable
        name="mapping"
        items={[...mappingFields(mapping.value ?? {})]}
        rowKey={([field]) => field}
        columns={[
          ['Field', ([field]) => field],
          ['Type', ([, type]) => <code>{type}</code>],
        ]}
      />
    </article>
  );
}
