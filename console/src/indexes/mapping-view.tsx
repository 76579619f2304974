/** One index's fields and their types, from `GET /{index}/_mapping`, flattened to dotted names. */
import { mappingFields, type Api, type MappingResponse } from '../api/index.js';
import { ErrorView, useLoad } from '../ui/index.js';

export function MappingView({ client, index }: { client: Api; index: string }) {
  const mapping = useLoad(() => client.get<MappingResponse>(`/${encodeURIComponent(index)}/_mapping`), [client, index]);
  const fields = [...mappingFields(mapping.value ?? {})];
  return (
    <article class="mapping" data-mapping-of={index}>
      <h3>Mapping of {index}</h3>
      {mapping.error !== undefined && <ErrorView error={mapping.error} />}
      {mapping.loading && <p aria-busy="true" />}
      <table>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
          </tr>
        </thead>
        <tbody>
          {fields.map(([name, type]) => (
            <tr key={name}>
              <td>{name}</td>
              <td>
                <code>{type}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
