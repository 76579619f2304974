import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BadRequestError } from '../../../src/common/errors.js';
import type { AggResult, PercentilesResult, StatsResult, TopHitsResult } from '../../../src/engine/aggregations/index.js';
import { ALL, ROWS, dataSet, metric, rowsWhere, run, sum, type DataSet } from './data.js';

function stats(r: AggResult): StatsResult {
  assert.equal(r.kind, 'stats');
  return r as StatsResult;
}

describe('metric aggregations', () => {
  let data: DataSet;
  before(async () => {
    data = await dataSet();
  });
  after(() => data.close());

  const bytes = ROWS.filter((r) => r.bytes !== undefined).map((r) => r.bytes!);

  it('stats family over three segments of two indexes', () => {
    const [avg, total, min, max, st, count] = run(data.targets, [
      metric('avg', 'a', 'bytes'),
      metric('sum', 's', 'bytes'),
      metric('min', 'mi', 'bytes'),
      metric('max', 'ma', 'bytes'),
      metric('stats', 'st', 'status'),
      metric('value_count', 'c', 'bytes'),
    ]);
    assert.equal(bytes.length, 51);
    assert.equal(stats(avg!).count, 51);
    assert.equal(stats(avg!).sum, sum(bytes));
    assert.equal(stats(total!).sum, sum(bytes));
    assert.equal(stats(min!).min, 10.5);
    assert.equal(stats(max!).max, 590.5);
    const s = stats(st!);
    assert.deepEqual([s.count, s.min, s.max, s.sum], [60, 200, 500, sum(ROWS.map((r) => r.status))]);
    assert.equal(stats(count!).count, 51);
    assert.equal(s.valueKind, 'long');
    assert.equal(stats(avg!).valueKind, 'double');
  });

  it('extended_stats keeps the sum of squares', () => {
    const [ext] = run(data.targets, [metric('extended_stats', 'e', 'status')]);
    const s = stats(ext!);
    assert.equal(s.type, 'extended_stats');
    assert.equal(s.sumOfSquares, sum(ROWS.map((r) => r.status * r.status)));
  });

  it('missing stands in for docs without a value', () => {
    const [withMissing, count] = run(data.targets, [metric('sum', 's', 'bytes', { missing: 1000 }), metric('value_count', 'c', 'level', { missing: 'none' })]);
    assert.equal(stats(withMissing!).sum, sum(bytes) + 9 * 1000);
    assert.equal(stats(withMissing!).count, 60);
    assert.equal(stats(count!).count, 60);
  });

  it('value_count counts keyword values; a query narrows every metric', () => {
    const [levels] = run(data.targets, [metric('value_count', 'c', 'level')]);
    assert.equal(stats(levels!).count, rowsWhere((r) => r.level !== undefined).length);
    const [a] = run(data.targets, [metric('avg', 'a', 'bytes')], { kind: 'term', field: 'host', value: 'b' });
    const b = rowsWhere((r) => r.host === 'b' && r.bytes !== undefined).map((r) => r.bytes!);
    assert.equal(stats(a!).count, b.length);
    assert.equal(stats(a!).sum / stats(a!).count, sum(b) / b.length);
  });

  it('a field no segment has gives empty metrics; dates report their kind', () => {
    const [none, ts] = run(data.targets, [metric('max', 'm', 'nope'), metric('min', 't', '_ts')]);
    assert.equal(stats(none!).count, 0);
    assert.equal(stats(none!).max, -Infinity);
    assert.equal(stats(ts!).min, ROWS[0]!.ts);
    assert.equal(stats(ts!).valueKind, 'date');
  });

  it('numeric metrics on keyword or text fields are a 400', () => {
    assert.throws(() => run(data.targets, [metric('avg', 'a', 'host')]), (e: unknown) => e instanceof BadRequestError && /of type \[keyword\] is not supported for aggregation \[avg\]/.test(e.message));
    assert.throws(() => run(data.targets, [metric('sum', 's', '_line')]), (e: unknown) => e instanceof BadRequestError && /Text fields are not optimised/.test(e.message));
    assert.throws(() => run(data.targets, [metric('max', 's', '_id')]), BadRequestError);
  });

  it('cardinality is exact below the precision threshold', () => {
    const [hosts, statuses, bytesCard, lines] = run(data.targets, [
      { type: 'cardinality', name: 'h', field: 'host', precisionThreshold: 3000 },
      { type: 'cardinality', name: 's', field: 'status', precisionThreshold: 3000 },
      { type: 'cardinality', name: 'b', field: 'bytes', precisionThreshold: 3000, missing: -1 },
      { type: 'cardinality', name: 'l', field: 'level', precisionThreshold: 3000 },
    ]);
    assert.deepEqual(hosts, { kind: 'cardinality', value: 4 });
    assert.deepEqual(statuses, { kind: 'cardinality', value: 3 });
    assert.deepEqual(bytesCard, { kind: 'cardinality', value: 52 });
    assert.deepEqual(lines, { kind: 'cardinality', value: 3 });
  });

  it('percentiles interpolate between ranks, exactly for small sets', () => {
    const [p] = run(data.targets, [{ type: 'percentiles', name: 'p', field: 'bytes', percents: [0, 25, 50, 99, 100] }]);
    const sorted = [...bytes].sort((a, b) => a - b);
    const at = (q: number) => {
      const rank = q * (sorted.length - 1);
      const lo = Math.floor(rank);
      return sorted[lo]! + (sorted[Math.ceil(rank)]! - sorted[lo]!) * (rank - lo);
    };
    const values = (p as PercentilesResult).values;
    assert.deepEqual(
      values.map((v) => v.percent),
      [0, 25, 50, 99, 100],
    );
    for (const v of values) assert.ok(Math.abs(v.value! - at(v.percent / 100)) < 1e-9, `p${v.percent}: ${v.value} vs ${at(v.percent / 100)}`);
  });

  it('percentiles: a 400 on keyword and boolean fields, nulls without values', () => {
    for (const field of ['host', 'ok']) {
      assert.throws(
        () => run(data.targets, [{ type: 'percentiles', name: 'p', field, percents: [50] }]),
        (e: unknown) => e instanceof BadRequestError && e.status === 400 && /not supported for aggregation \[percentiles\]/.test(e.message),
      );
    }
    const [p] = run(data.targets, [{ type: 'percentiles', name: 'p', field: 'nope', percents: [50] }]);
    assert.deepEqual((p as PercentilesResult).values, [{ percent: 50, value: null }]);
  });

  it('top_hits: newest first by default, or by a field; sources of the winners only', () => {
    const [top] = run(data.targets, [{ type: 'top_hits', name: 't', from: 0, size: 2, sort: [] }]);
    const hits = (top as TopHitsResult).hits;
    assert.equal((top as TopHitsResult).total, 60);
    assert.deepEqual(
      hits.map((h) => JSON.parse(h.source).i),
      [59, 58],
    );
    assert.deepEqual(
      hits.map((h) => h.id),
      ['1059', '1058'],
    );
    assert.deepEqual(
      hits.map((h) => h.index),
      ['i2', 'i2'],
    );
    const [bySize] = run(data.targets, [{ type: 'top_hits', name: 't', from: 1, size: 2, sort: [{ field: 'bytes', order: 'asc' }] }]);
    assert.deepEqual(
      (bySize as TopHitsResult).hits.map((h) => h.sortValues),
      [[20.5], [30.5]],
    );
    const [byHost] = run(data.targets, [{ type: 'top_hits', name: 't', from: 0, size: 3, sort: [{ field: 'host', order: 'desc' }, { field: '_ts', order: 'asc' }] }]);
    assert.deepEqual(
      (byHost as TopHitsResult).hits.map((h) => h.sortValues),
      [
        ['d', ROWS[9]!.ts],
        ['d', ROWS[19]!.ts],
        ['d', ROWS[29]!.ts],
      ],
    );
    assert.throws(() => run(data.targets, [{ type: 'top_hits', name: 't', from: 90, size: 20, sort: [] }]), /Top hits result window is too large/);
  });

  it('no targets: every aggregation still answers', () => {
    const results = run([], [metric('avg', 'a', 'bytes'), { type: 'cardinality', name: 'c', field: 'host', precisionThreshold: 10 }], ALL);
    assert.equal(stats(results[0]!).count, 0);
    assert.deepEqual(results[1], { kind: 'cardinality', value: 0 });
  });
});
