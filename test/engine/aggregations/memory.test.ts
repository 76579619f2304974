import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CircuitBreakingError } from '../../../src/common/errors.js';
import { AggregationBreaker, AggregationMemory, AggregationService } from '../../../src/engine/aggregations/index.js';
import type { SearchTarget } from '../../../src/engine/index.js';
import { ALL, memtable, metric, run, terms, type Row } from './data.js';

/** A memtable of n docs, each with its own `u` value and a numeric `v`. */
function distinct(n: number): SearchTarget[] {
  const rows: Row[] = Array.from({ length: n }, (_, i) => ({
    i,
    ts: i,
    index: 'i1',
    host: `u${String(i).padStart(7, '0')}`,
    status: i % 1000,
    ok: false,
    line: 'x',
  }));
  return [{ index: 'big', segment: memtable('big', rows) }];
}

describe('aggregation memory', () => {
  it('the breaker refuses what does not fit, with a 429 circuit_breaking_exception', () => {
    const breaker = new AggregationBreaker(1000);
    const memory = new AggregationMemory(breaker, 10);
    memory.charge(600, 'a');
    assert.throws(
      () => memory.charge(600, 'terms [by_user]'),
      (e: unknown) =>
        e instanceof CircuitBreakingError &&
        e.status === 429 &&
        e.type === 'circuit_breaking_exception' &&
        e.details.bytes_limit === 1000 &&
        e.details.bytes_wanted === 1200 &&
        /Data too large, data for \[terms \[by_user\]\]/.test(e.message),
    );
    assert.equal(breaker.used, 600);
    memory.close();
    assert.equal(breaker.used, 0);
  });

  it('the bucket cap is a 400 too_many_buckets_exception', () => {
    const memory = new AggregationMemory(new AggregationBreaker(1000), 10);
    memory.consumeBuckets(10);
    assert.throws(() => memory.consumeBuckets(1), (e: unknown) => e instanceof Error && 'type' in e && e.type === 'too_many_buckets_exception' && /\[10\] but was \[11\]/.test(e.message));
  });

  it('a terms aggregation over 200k distinct values stays under the budget or fails, and gives everything back', () => {
    const targets = distinct(200_000);
    const small = new AggregationService({ memoryBytes: 2 << 20, maxBuckets: 65535 });
    assert.throws(() => small.run(targets, { query: ALL, aggs: [terms('u', 'host', { size: 10 })] }), CircuitBreakingError);
    assert.ok(small.breaker.peakBytes <= 2 << 20, 'nothing was charged past the limit');
    assert.equal(small.breaker.used, 0);
    // the same service still answers what fits
    const [status] = small.run(targets, { query: ALL, aggs: [metric('max', 'm', 'status')] });
    assert.equal(status!.kind === 'stats' && status!.max, 999);

    const large = new AggregationService({ memoryBytes: 64 << 20, maxBuckets: 65535 });
    const [top] = large.run(targets, { query: ALL, aggs: [terms('u', 'host', { size: 3, order: [{ by: '_key', desc: true }] })] });
    assert.deepEqual(
      top!.kind === 'terms' && top!.buckets.map((b) => b.key),
      ['u0199999', 'u0199998', 'u0199997'],
    );
    assert.equal(top!.kind === 'terms' && top!.sumOtherDocCount, 199_997);
    assert.ok(large.breaker.peakBytes > 200_000 * 16, `the partial of 200k terms was accounted: peak ${large.breaker.peakBytes}`);
    assert.equal(large.breaker.used, 0);
  });

  it('nested buckets count against the budget as they grow', () => {
    const targets = distinct(50_000);
    const svc = new AggregationService({ memoryBytes: 1 << 20, maxBuckets: 65535 });
    assert.throws(
      () => svc.run(targets, { query: ALL, aggs: [terms('s', 'status', { size: 1000, aggs: [terms('u', 'host', { size: 1000, aggs: [metric('avg', 'a', 'status')] })] })] }),
      CircuitBreakingError,
    );
    assert.equal(svc.breaker.used, 0);
  });

  it('too many buckets in the response is a 400 even within the memory budget', () => {
    const targets = distinct(5000);
    const svc = new AggregationService({ memoryBytes: 64 << 20, maxBuckets: 1000 });
    assert.throws(() => run(targets, [terms('u', 'host', { size: 2000 })], ALL, svc), /Trying to create too many buckets/);
    const [ok] = run(targets, [terms('u', 'host', { size: 1000 })], ALL, svc);
    assert.equal(ok!.kind === 'terms' && ok!.buckets.length, 1000);
  });
});
