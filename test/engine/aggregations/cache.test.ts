import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AggregationService, type AggSpec } from '../../../src/engine/aggregations/index.js';
import type { SearchTarget } from '../../../src/engine/index.js';
import type { SegmentReader } from '../../../src/engine/segment-reader.js';
import { emptyStats } from '../../../src/engine/aggregations/partial.js';
import { ALL, ROWS, dataSet, memtable, metric, terms, type DataSet } from './data.js';

/** The segment, counting reads of its columns. */
function counting(segment: SegmentReader): { segment: SegmentReader; reads: () => number } {
  let reads = 0;
  const wrapped = new Proxy(segment, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (prop === 'numeric' || prop === 'ordinals' || prop === 'exists') {
        return (...args: unknown[]) => {
          reads++;
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { segment: wrapped, reads: () => reads };
}

describe('aggregation result cache', () => {
  let data: DataSet;
  before(async () => {
    data = await dataSet();
  });
  after(() => data.close());

  const aggs: AggSpec[] = [terms('h', 'host', { aggs: [metric('avg', 'a', 'bytes')] }), { type: 'cardinality', name: 'c', field: 'status', precisionThreshold: 100 }];

  it('keeps partials of segment files, not of memtables, and answers the same from them', () => {
    const gauges: Array<[number, number]> = [];
    const svc = new AggregationService({ memoryBytes: 16 << 20, maxBuckets: 1000, onCacheChange: (bytes, count) => gauges.push([bytes, count]) });
    const file = counting(data.file);
    const targets: SearchTarget[] = data.targets.map((t) => (t.segment === data.file ? { ...t, segment: file.segment } : t));
    const first = svc.run(targets, { query: ALL, aggs });
    assert.equal(svc.cache.size, 1, 'only the segment file');
    assert.ok(svc.cache.bytes > 0);
    assert.deepEqual(gauges.at(-1), [svc.cache.bytes, 1]);
    const readsAfterFirst = file.reads();
    assert.ok(readsAfterFirst > 0);
    const second = svc.run(targets, { query: ALL, aggs });
    assert.deepEqual(second, first);
    assert.equal(file.reads(), readsAfterFirst, 'the segment file was not read again');
    assert.equal(svc.breaker.used, svc.cache.bytes, 'only the cache holds memory between requests');
  });

  it('a different query, options that shape the partial, or a doc limit miss the cache', () => {
    const svc = new AggregationService({ memoryBytes: 16 << 20, maxBuckets: 1000 });
    svc.run(data.targets, { query: ALL, aggs });
    svc.run(data.targets, { query: { kind: 'term', field: 'host', value: 'a' }, aggs });
    assert.equal(svc.cache.size, 2);
    // size and order only shape the final result: same entry
    svc.run(data.targets, { query: ALL, aggs: [terms('h', 'host', { size: 2, order: [{ by: '_key', desc: true }], aggs: [metric('avg', 'a', 'bytes')] }), aggs[1]!] });
    assert.equal(svc.cache.size, 2);
    svc.run(data.targets, { query: ALL, aggs: [terms('h', 'host', { minDocCount: 0 })] });
    assert.equal(svc.cache.size, 3);
    const limited = data.targets.map((t) => (t.segment === data.file ? { ...t, docLimit: 5 } : t));
    svc.run(limited, { query: ALL, aggs });
    assert.equal(svc.cache.size, 3);
    svc.run(data.targets, { query: ALL, aggs: [{ type: 'top_hits', name: 't', from: 0, size: 1, sort: [] }] });
    assert.equal(svc.cache.size, 3, 'top_hits hold segments: never cached');
  });

  it('a growing memtable is never served stale', () => {
    const svc = new AggregationService({ memoryBytes: 16 << 20, maxBuckets: 1000 });
    const [before] = svc.run(data.targets, { query: ALL, aggs: [metric('value_count', 'c', 'host')] });
    assert.equal(before!.kind === 'stats' && before!.count, ROWS.length);
    const mem = data.targets[2]!.segment as unknown as { add(doc: unknown): void };
    mem.add({ id: 99_999n, lid: 61, ts: ROWS[59]!.ts + 1, source: '{}', fields: [{ name: 'host', type: 'keyword', values: ['e'] }] });
    const [after] = svc.run(data.targets, { query: ALL, aggs: [metric('value_count', 'c', 'host')] });
    assert.equal(after!.kind === 'stats' && after!.count, ROWS.length + 1);
  });

  it('is bounded in bytes and gives its memory up to requests that need it', () => {
    const svc = new AggregationService({ memoryBytes: 4 << 20, maxBuckets: 1000, cacheBytes: 2 << 20 });
    for (let k = 0; k < 50; k++) svc.run(data.targets, { query: { kind: 'range', field: 'bytes', gte: k }, aggs });
    assert.ok(svc.cache.bytes <= 2 << 20);
    const held = svc.cache.bytes;
    svc.cache.evict(held);
    assert.equal(svc.cache.size, 0);
    assert.equal(svc.breaker.used, 0);

    // a cache holding most of the budget makes room for a request rather than failing it
    const tight = new AggregationService({ memoryBytes: 1 << 20, maxBuckets: 100_000, cacheBytes: 1 << 20 });
    for (let k = 0; k < 4; k++) tight.cache.put(`k${k}`, [{ ...emptyStats(), ownBytes: 200_000 }]);
    assert.equal(tight.cache.size, 4);
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ ...ROWS[0]!, i, host: `h${i}` }));
    const [r] = tight.run([{ index: 'x', segment: memtable('x', rows) }], { query: ALL, aggs: [terms('h', 'host', { size: 5 })] });
    assert.equal(r!.kind === 'terms' && r!.sumOtherDocCount, 19_995);
    assert.ok(tight.cache.size < 4, 'cached entries were evicted for the request');
    assert.ok(tight.breaker.peakBytes <= 1 << 20);
  });
});
