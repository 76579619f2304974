/**
 * What a search runs over and the checks Elasticsearch makes against the mappings of those
 * indexes before running it: the readable indexes of the request, their segments, and the field
 * types used to render `fields` and to refuse sorts on fields no index maps.
 */
import { BadRequestError, SvcError } from '../../common/index.js';
import type { Engine, SearchResult, SearchTarget } from '../../engine/index.js';
import type { AccessContext } from '../../auth/index.js';
import type { ApiDeps } from '../deps.js';
import { parseSearchAggregations, runSearchAggregations } from '../aggregations/index.js';
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
const BUILTIN_SORT_FIELDS = new Set(['_score', '_doc', '_id', '_ts', '_lid']);

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
export async function runSearch(deps: ApiDeps, targets: readonly SearchTarget[], search: EsSearch): Promise<SearchResult & { aggregationsJson?: string }> {
  const m = deps.metrics;
  m.queryTasksTotal.inc();
  m.queryTasksCurrentCount.inc();
  try {
    const aggregations = parseSearchAggregations(search);
    // admitted as a whole: the aggregations run on this thread, and count as the search's work
    return await deps.queryPool.admit(async () => {
      const result = await deps.queryPool.search(targets, search.request);
      return aggregations === undefined ? result : { ...result, aggregationsJson: await runSearchAggregations(deps, targets, search, aggregations) };
    }, search.request.deadlineMs);
  } catch (err) {
    if (!(err instanceof SvcError)) m.queryTasksPanickedTotal.inc();
    throw err;
  } finally {
    m.queryTasksCurrentCount.dec();
  }
}
