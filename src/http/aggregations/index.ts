/**
 * The `aggs` of a search: parse the Elasticsearch body into engine specs, run them on the
 * node's AggregationService (one per node: the memory breaker and the result cache, whose size
 * feeds the svc_aggregation_cache_entries_* gauges), render the `aggregations` object.
 */
import { AggregationService } from '../../engine/aggregations/index.js';
import type { SearchTarget } from '../../engine/index.js';
import type { ApiDeps } from '../deps.js';
import type { EsSearch } from '../search/search-request.js';
import { parseAggregations, type ParsedAggregations } from './parse-aggs.js';
import { renderAggregations } from './render.js';

export { parseAggregations, type AggView, type ParsedAggregations } from './parse-aggs.js';
export { renderAggregations } from './render.js';

const services = new WeakMap<ApiDeps['metrics'], AggregationService>();

/** The node's aggregation service (made on first use, one per metrics registry, i.e. per node). */
export function aggregationService(deps: Pick<ApiDeps, 'config' | 'metrics'>): AggregationService {
  let service = services.get(deps.metrics);
  if (service === undefined) {
    const { aggregationCacheEntriesBytes, aggregationCacheEntriesCount } = deps.metrics;
    service = new AggregationService({
      memoryBytes: deps.config.aggregationMemoryBytes,
      maxBuckets: deps.config.maxBuckets,
      onCacheChange: (bytes, count) => {
        aggregationCacheEntriesBytes.set(bytes);
        aggregationCacheEntriesCount.set(count);
      },
    });
    services.set(deps.metrics, service);
  }
  return service;
}

/** The search's aggregations parsed (a 400 before any work when the body is wrong), or undefined without any. */
export function parseSearchAggregations(search: EsSearch): ParsedAggregations | undefined {
  const body = search.aggregations;
  if (body === undefined || Object.keys(body).length === 0) return undefined;
  return parseAggregations(body, { nowMs: search.request.nowMs ?? Date.now() });
}

/**
 * Runs parsed aggregations over the search's targets, in slices between which the event loop
 * takes its turns, and renders the `aggregations` object text.
 */
export async function runSearchAggregations(
  deps: Pick<ApiDeps, 'config' | 'metrics'>,
  targets: readonly SearchTarget[],
  search: EsSearch,
  parsed: ParsedAggregations,
): Promise<string> {
  const { nowMs, deadlineMs } = search.request;
  const results = await aggregationService(deps).runInSlices(targets, {
    // post_filter narrows the hits, never the aggregations
    query: search.aggregationQuery,
    aggs: parsed.specs,
    ...(nowMs === undefined ? {} : { nowMs }),
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
  });
  return renderAggregations(parsed.views, results, search.typedKeys);
}
