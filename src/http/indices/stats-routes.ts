/**
 * `GET /_stats`, `/{index}/_stats` and `/{index}/_stats/{stats}`: true document counts, segment
 * counts and store sizes (segment files and memtables not yet flushed), per index and summed
 * under `_all`, primaries and total alike (there are no replicas). Of the Elasticsearch metric
 * groups only `docs`, `store` and `segments` are reported; the others are accepted and left out.
 */
import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../../common/index.js';
import type { ApiDeps } from '../deps.js';
import { shardsHeader, totalsOf, type IndexTotals } from './index-views.js';
import { targetIndices, type IndicesRequest } from './targets.js';

const KNOWN_METRICS: ReadonlySet<string> = new Set([
  '_all',
  'bulk',
  'completion',
  'docs',
  'fielddata',
  'flush',
  'get',
  'indexing',
  'merge',
  'query_cache',
  'recovery',
  'refresh',
  'request_cache',
  'search',
  'segments',
  'store',
  'translog',
  'warmer',
]);


export function metricsOf(metricParam: string | undefined, path: string): Set<string> {
  const metrics = new Set((metricParam ?? '_all').split(',').map((m) => m.trim()));
  const unknown = [...metrics].filter((m) => !KNOWN_METRICS.has(m));
  if (unknown.length > 0) throw new BadRequestError(`request [${path}] contains unrecognized metric${unknown.length > 1 ? 's' : ''}: [${unknown.join(', ')}]`);
  return metrics;
}

function section(totals: IndexTotals, metrics: Set<string>): Record<string, unknown> {
  const all = metrics.has('_all');
  const out: Record<string, unknown> = {};
  if (all || metrics.has('docs')) out.docs = { count: totals.docs, deleted: totals.deletedDocs };
  if (all || metrics.has('store')) out.store = { size_in_bytes: totals.storeBytes, reserved_in_bytes: 0 };
  if (all || metrics.has('segments')) out.segments = { count: totals.segments, memory_in_bytes: 0 };
  return out;
}

export function registerStatsRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const stats = async (request: IndicesRequest) => {
    const metrics = metricsOf(request.params.stats, request.url.split('?')[0]!);
    const names = targetIndices(deps, request, 'read', request.params.index);
    const sum: IndexTotals = { docs: 0, deletedDocs: 0, storeBytes: 0, segments: 0 };
    const indices: Record<string, unknown> = {};
    for (const name of names) {
      const shard = deps.engine.shard(name);
      if (!shard) continue;
      const totals = totalsOf(shard);
      sum.docs += totals.docs;
      sum.deletedDocs += totals.deletedDocs;
      sum.storeBytes += totals.storeBytes;
      sum.segments += totals.segments;
      const one = section(totals, metrics);
      indices[name] = { uuid: shard.uuid, primaries: one, total: one };
    }
    const all = section(sum, metrics);
    return { _shards: shardsHeader(names.length), _all: { primaries: all, total: all }, indices };
  };
  app.get('/_stats', stats);
  app.get('/_stats/:stats', stats);
  app.get('/:index/_stats', stats);
  app.get('/:index/_stats/:stats', stats);
}
