/**
 * What a search runs over and the checks Elasticsearch makes against the mappings of those
 * indexes before running it: the readable indexes of the request, their segments, and the field
 * types used to render `fields` and to refuse sorts on fields no index maps.
 */
import { BadRequestError, SvcError } from '../../common/index.js';
import type { Engine, PartialWire, SearchResult, SearchTarget } from '../../engine/index.js';
import type { AccessContext } from '../../auth/index.js';
import type { ApiDeps } from '../deps.js';
import { aggregationService, parseSearchAggregations, runSearchAggregations } from '../aggregations/index.js';
import type { QueryParams } from '../query-params.js';
import { checkDocvalueFields, type FieldTypeLookup } from './hit-fields.js';
import type { EsSearch } from './search-request.js';
import { readableIndices } from './target-indices.js';

export interface SearchScope {
  indices: string[];
  targets: SearchTarget[];
}

const KEYWORD_SUFFIX = '.keyword';
/** sort keys that need no mapping */
export const BUILTIN_SORT_FIELDS: ReadonlySet<string> = new Set(['_score', '_doc', '_id', '_ts', '_lid']);

export function resolveScope(engine: Engine, access: AccessContext, expression: string | undefined, params: QueryParams): SearchScope {
  const indices = readableIndices(engine, access, expression, params);
  return { indices, targets: engine.searchTargets(indices) };
}

/** Field types as the indexes map them now (mappings only grow). */
export function fieldTypesOf(engine: Engine): FieldTypeLookup {
  return (index, field) => engine.shard(index)?.mapping.fieldType(field);
}

function mapsSortField(typeOf: FieldTypeLookup, index: string, field: string): boolean {
  if (typeOf(index, field) !== undefined) return true;
  return field.endsWith(KEYWORD_SUFFIX) && typeOf(index, field.slice(0, -KEYWORD_SUFFIX.length)) === 'keyword';
}

/** Refusals Elasticsearch makes from the mappings: sorts on unmapped fields, doc values of text. */
export function checkAgainstMappings(search: EsSearch, indices: readonly string[], typeOf: FieldTypeLookup): void {
  // a malformed `aggs` body is a 400 before any work
  parseSearchAggregations(search);
  checkDocvalueFields(search.docvalueFields, indices, typeOf);
  if (indices.length === 0) return;
  for (const { field } of search.request.sort) {
    if (BUILTIN_SORT_FIELDS.has(field) || search.unmappedSortFields.has(field)) continue;
    if (field === '_index') throw new BadRequestError('sorting on [_index] is not supported');
    if (!indices.some((index) => mapsSortField(typeOf, index, field))) {
      throw new BadRequestError(`No mapping found for [${field}] in order to sort on`, 'query_shard_exception', { index: indices[0] });
    }
  }
}

/**
 * The one place every search of this folder runs (`_search`, `_count`, msearch items, scroll
 * pages): segment files on the query threads, memtables and aggregations here, with the query
 * metrics around it.
 */
export async function runSearch(deps: SearchDeps, targets: readonly SearchTarget[], search: EsSearch): Promise<SearchResult & { aggregationsJson?: string }> {
  return measured(deps, search, async () => {
    const aggregations = parseSearchAggregations(search);
    const result = await deps.queryPool.search(targets, search.request);
    return aggregations === undefined ? result : { ...result, aggregationsJson: await runSearchAggregations(deps, targets, search, aggregations) };
  });
}

/**
 * This node's part of a search spread over cache nodes: the first `from + size` hits of its
 * targets and what its indexes know of the aggregations, for the api role to merge
 * (cluster/search-parts.ts). `indexCount` counts the indexes of the whole search.
 */
export async function runSearchPart(
  deps: SearchDeps,
  targets: readonly SearchTarget[],
  search: EsSearch,
  indexCount: number,
): Promise<SearchResult & { aggregations: PartialWire[] | null | undefined }> {
  const request = { ...search.request, from: 0, size: search.request.from + search.request.size };
  return measured(deps, search, async () => {
    const aggregations = parseSearchAggregations(search);
    const result = await deps.queryPool.search(targets, request);
    if (aggregations === undefined) return { ...result, aggregations: undefined };
    const { nowMs, deadlineMs } = search.request;
    const partials = await aggregationService(deps).partialsInSlices(
      targets,
      {
        query: search.aggregationQuery,
        aggs: aggregations.specs,
        ...(nowMs === undefined ? {} : { nowMs }),
        ...(deadlineMs === undefined ? {} : { deadlineMs }),
      },
      indexCount,
    );
    return { ...result, aggregations: partials };
  });
}

type SearchDeps = Pick<ApiDeps, 'metrics' | 'queryPool' | 'config'>;

/** Admitted as a whole (the aggregations run on this thread, and count as the search's work), with the query metrics around it. */
async function measured<T>(deps: SearchDeps, search: EsSearch, work: () => Promise<T>): Promise<T> {
  const m = deps.metrics;
  m.queryTasksTotal.inc();
  m.queryTasksCurrentCount.inc();
  try {
    return await deps.queryPool.admit(work, search.request.deadlineMs);
  } catch (err) {
    if (!(err instanceof SvcError)) m.queryTasksPanickedTotal.inc();
    throw err;
  } finally {
    m.queryTasksCurrentCount.dec();
  }
}
