/**
 * The steps of a search the api role spreads over cache nodes: parse and resolve the indexes
 * (with the caller's access), ask each node holding some of them for its part, merge the parts
 * (hits in sort order, totals added up, aggregation partials merged and finalized).
 */
import type { AccessContext } from '../../auth/index.js';
import type { SearchPartRequest, SearchPartResponse } from '../../cluster/index.js';
import { IndexMapping, mergeSearchResults, type SearchRequest, type SearchResult } from '../../engine/index.js';
import { aggregationService, parseSearchAggregations, renderAggregations } from '../aggregations/index.js';
import type { QueryParams } from '../query-params.js';
import type { FieldTypeLookup } from '../search/hit-fields.js';
import { toSearchRequest, type EsSearch } from '../search/search-request.js';
import { BUILTIN_SORT_FIELDS, checkAgainstMappings } from '../search/search-scope.js';
import { readableIndices } from '../search/target-indices.js';
import type { RoutedApiDeps } from './deps.js';
import { withPlacements } from './fan-out.js';

/** A search parsed, its indexes resolved, and where they are. */
export interface RoutedSearch {
  search: EsSearch;
  aggregations: ReturnType<typeof parseSearchAggregations>;
  indices: string[];
  owners: Map<string, string[]>;
  params: QueryParams;
  body: Record<string, unknown> | undefined;
  nowMs: number;
  /** until when the request waits for its indexes to move, all its parts together */
  deadlineMs: number;
}

export async function prepare(
  deps: RoutedApiDeps,
  access: AccessContext,
  params: QueryParams,
  expression: string | undefined,
  body: Record<string, unknown> | undefined,
): Promise<RoutedSearch> {
  const search = toSearchRequest(params, body, deps.config.queryTimeoutMs);
  const aggregations = parseSearchAggregations(search);
  const snapshot = await deps.routing.current();
  const indices = readableIndices({ indexNames: () => snapshot.indexes, aliasMap: () => snapshot.aliases.map() }, access, expression, params);
  const deadlineMs = deps.routing.deadline();
  const owners = await deps.routing.byOwner(indices, deadlineMs);
  return { search, aggregations, indices, owners, params, body, nowMs: search.request.nowMs ?? Date.now(), deadlineMs };
}

/**
 * Each node's part, asked of every node at once; `scroll` per node URL for the pages of a
 * scroll. A search (not a scroll page, whose views live on their nodes) that meets a node
 * stopping or an index moving (503) is asked again with the placements read again, until the
 * request's deadline.
 */
export async function searchParts(
  deps: RoutedApiDeps,
  routed: RoutedSearch,
  scroll?: (url: string) => SearchPartRequest['scroll'],
): Promise<{ parts: Array<SearchPartResponse & { url: string }>; typeOf: FieldTypeLookup }> {
  return withPlacements(deps, routed.indices, (owners) => askParts(deps, routed, owners, scroll), {
    owners: routed.owners,
    deadlineMs: routed.deadlineMs,
    retry: scroll === undefined,
  });
}

async function askParts(
  deps: RoutedApiDeps,
  routed: RoutedSearch,
  owners: ReadonlyMap<string, string[]>,
  scroll: ((url: string) => SearchPartRequest['scroll']) | undefined,
): Promise<{ parts: Array<SearchPartResponse & { url: string }>; typeOf: FieldTypeLookup }> {
  const { indices, params, body, nowMs, search } = routed;
  const withMappings = needsMappings(search);
  const parts = await Promise.all(
    [...owners].map(async ([url, held]) => {
      const part: SearchPartRequest = {
        indices,
        held,
        params: stringParams(params),
        ...(body === undefined ? {} : { body }),
        nowMs,
        withMappings,
        ...(scroll === undefined ? {} : { scroll: scroll(url) }),
      };
      return { ...(await deps.client.json<SearchPartResponse>(url, '/_internal/search', part)), url };
    }),
  );
  const mappings = new Map<string, IndexMapping>();
  for (const part of parts) for (const [index, json] of Object.entries(part.mappings ?? {})) mappings.set(index, IndexMapping.fromJSON(json));
  const typeOf: FieldTypeLookup = (index, field) => mappings.get(index)?.fieldType(field);
  checkAgainstMappings(search, indices, typeOf);
  return { parts, typeOf };
}

/** The parts merged: hits in `request`'s order, totals added up, aggregations merged and rendered. */
export function mergeParts(deps: RoutedApiDeps, routed: RoutedSearch, parts: readonly SearchPartResponse[], request: SearchRequest): SearchResult & { aggregationsJson?: string } {
  const result = mergeSearchResults(parts, request);
  const { aggregations, search, indices, nowMs } = routed;
  if (aggregations === undefined) return result;
  const results = aggregationService(deps).reduceParts(
    { query: search.aggregationQuery, aggs: aggregations.specs, nowMs },
    parts.map((p) => p.aggregations ?? null),
    indices.length,
  );
  return { ...result, aggregationsJson: renderAggregations(aggregations.views, results, search.typedKeys) };
}

/** Whether rendering or checking the search needs the indexes' field types. */
function needsMappings(search: EsSearch): boolean {
  return (
    search.docvalueFields.length > 0 ||
    search.fetchFields.length > 0 ||
    search.highlight !== undefined ||
    search.request.sort.some((k) => !BUILTIN_SORT_FIELDS.has(k.field) && !search.unmappedSortFields.has(k.field))
  );
}

function stringParams(params: QueryParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) out[k] = v;
  return out;
}
