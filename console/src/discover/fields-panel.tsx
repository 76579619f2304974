/**
 * The keyword fields of the chosen indexes (from `_mapping`); a field opens its top values among
 * the current matches (a `terms` aggregation), each with buttons to filter it in or out.
 */
import { useState } from 'preact/hooks';
import { mappingFields, type Api, type MappingResponse } from '../api/index.js';
import { ErrorView, formatCount, useLoad } from '../ui/index.js';
import { topValuesBody, type SearchInput } from './search-request.js';
import type { SearchResponse } from './search-response.js';

const AGGREGATABLE = new Set(['keyword', 'long', 'boolean']);
const HIDDEN = new Set(['_lid']);

interface Props {
  client: Api;
  indexes: string;
  input: SearchInput;
  onFilter(field: string, value: string | number | boolean, include: boolean): void;
}

export function FieldsPanel({ client, indexes, input, onFilter }: Props) {
  const [open, setOpen] = useState<string | undefined>();
  const mapping = useLoad(() => client.get<MappingResponse>(`/${encodeURIComponent(indexes)}/_mapping`), [client, indexes]);
  const names = [...mappingFields(mapping.value ?? {})]
    .filter(([name, type]) => AGGREGATABLE.has(type) && !HIDDEN.has(name))
    .map(([name]) => name)
    .sort();

  return (
    <aside class="fields-panel" aria-label="Fields">
      <h4>Fields</h4>
      {mapping.error !== undefined && <ErrorView error={mapping.error} />}
      {mapping.value !== undefined && names.length === 0 && <p class="muted">No keyword fields.</p>}
      <ul>
        {names.map((name) => (
          <li key={name}>
            <button class={open === name ? 'field' : 'field outline secondary'} data-field={name} aria-expanded={open === name} onClick={() => setOpen(open === name ? undefined : name)}>
              {name}
            </button>
            {open === name && <TopValues client={client} indexes={indexes} input={input} field={name} onFilter={onFilter} />}
          </li>
        ))}
      </ul>
    </aside>
  );
}

function TopValues({ client, indexes, input, field, onFilter }: Omit<Props, 'onFilter'> & { field: string; onFilter: Props['onFilter'] }) {
  const top = useLoad(
    () => client.post<SearchResponse>(`/${encodeURIComponent(indexes)}/_search`, topValuesBody(input, field)),
    [client, indexes, input.query, input.fromMs, input.toMs, field],
  );
  if (top.loading) return <p aria-busy="true" class="values" />;
  if (top.error !== undefined) return <ErrorView error={top.error} />;
  const total = top.value?.hits.total?.value ?? 0;
  const buckets = top.value?.aggregations?.top?.buckets ?? [];
  if (buckets.length === 0) return <p class="values muted">No values among the matches.</p>;
  return (
    <ul class="values" data-values-of={field}>
      {buckets.map((b) => {
        const value = (b.key_as_string === 'true' || b.key_as_string === 'false' ? b.key_as_string === 'true' : b.key) as string | number | boolean;
        const share = total === 0 ? 0 : Math.round((100 * b.doc_count) / total);
        return (
          <li key={String(b.key)} data-value={String(value)}>
            <span class="value" title={String(value)}>
              {String(value)}
            </span>
            <small class="muted" title={`${formatCount(b.doc_count)} of ${formatCount(total)}`}>
              {share}%
            </small>
            <button class="outline" title={`Only ${field}: ${String(value)}`} aria-label={`Filter in ${field} ${String(value)}`} onClick={() => onFilter(field, value, true)}>
              +
            </button>
            <button class="outline secondary" title={`Not ${field}: ${String(value)}`} aria-label={`Filter out ${field} ${String(value)}`} onClick={() => onFilter(field, value, false)}>
              −
            </button>
          </li>
        );
      })}
    </ul>
  );
}
