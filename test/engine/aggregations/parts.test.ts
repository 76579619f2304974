import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AggSpec } from '../../../src/engine/aggregations/index.js';
import { ALL, dataSet, metric, run, service, terms, type DataSet } from './data.js';

const NOW = Date.UTC(2024, 3, 1);

/** Every kind of partial: buckets with sub-aggregations, stats, both sketches past their exact range, top hits, single buckets. */
const SPECS: AggSpec[] = [
  terms('hosts', 'host', { size: 2, shardSize: 1, showTermDocCountError: true, aggs: [metric('avg', 'b', 'bytes'), { type: 'top_hits', name: 'top', from: 0, size: 2, sort: [{ field: 'status', order: 'desc' }] }] }),
  metric('extended_stats', 'bytes', 'bytes'),
  metric('min', 'none', 'no_such_field'),
  { type: 'cardinality', name: 'distinct', field: 'i', precisionThreshold: 10 },
  { type: 'percentiles', name: 'pct', field: 'bytes', percents: [5, 50, 99] },
  { type: 'missing', name: 'no_level', field: 'level', aggs: [terms('statuses', 'status')] },
];

describe('aggregations spread over nodes', () => {
  let data: DataSet;
  before(async () => {
    data = await dataSet();
  });
  after(() => data.close());

  it('partials of each node, sent as JSON and merged, give what one node holding every index gives', async () => {
    const expected = run(data.targets, SPECS);
    const svc = service();
    const request = { query: ALL, aggs: SPECS, nowMs: NOW };
    // i1 (a memtable and a segment file) on one node, i2 on another, and a node holding nothing that matched
    const parts = await Promise.all([
      svc.partialsInSlices(data.targets.slice(0, 2), request, 2),
      // each target keeps its place in the whole search, as a cache node sets it
      svc.partialsInSlices(data.targets.slice(2).map((t) => ({ ...t, order: 2 })), request, 2),
      svc.partialsInSlices([], request, 2),
    ]);
    assert.equal(parts[2], null);
    const sent = parts.map((p) => JSON.parse(JSON.stringify(p)) as typeof p);
    assert.deepEqual(svc.reduceParts(request, sent, 2), expected);
    assert.equal(svc.breaker.used, svc.cache.bytes, 'nothing stays charged');
  });
});
