import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BadRequestError } from '../../../src/common/errors.js';
import type { AggResult, StatsResult, TermsResult } from '../../../src/engine/aggregations/index.js';
import { ROWS, dataSet, metric, rowsWhere, run, sum, terms, type DataSet, type Row } from './data.js';

function t(r: AggResult | undefined): TermsResult {
  assert.equal(r?.kind, 'terms');
  return r as TermsResult;
}

const pairs = (r: AggResult | undefined) => t(r).buckets.map((b) => [b.key, b.docCount]);

describe('terms aggregation', () => {
  let data: DataSet;
  before(async () => {
    data = await dataSet();
  });
  after(() => data.close());

  it('counts keywords over segments and indexes, by count then key', () => {
    const [r] = run(data.targets, [terms('h', 'host')]);
    assert.deepEqual(pairs(r), [['a', 30], ['b', 18], ['c', 6], ['d', 6]]);
    assert.equal(t(r).valueKind, 'string');
    assert.equal(t(r).sumOtherDocCount, 0);
    assert.equal(t(r).docCountErrorUpperBound, 0);
  });

  it('size cuts, the rest counts in sum_other_doc_count', () => {
    const [r] = run(data.targets, [terms('h', 'host', { size: 2 })]);
    assert.deepEqual(pairs(r), [['a', 30], ['b', 18]]);
    assert.equal(t(r).sumOtherDocCount, 12);
    assert.equal(t(r).docCountErrorUpperBound, 0, 'the default shard_size (13) kept every term of each index');
  });

  it('shard_size cuts per index and bounds the error of the counts', () => {
    // i1: a20 b12 c4 d4, i2: a10 b6 c2 d2; each index keeps only its best term
    const [r] = run(data.targets, [terms('h', 'host', { size: 1, shardSize: 1, showTermDocCountError: true })]);
    assert.deepEqual(pairs(r), [['a', 30]]);
    assert.equal(t(r).sumOtherDocCount, 30);
    assert.equal(t(r).docCountErrorUpperBound, 30);
    assert.equal(t(r).buckets[0]!.docCountError, 0, 'both indexes returned a');
    // one index alone: counts are exact
    const [one] = run(data.targets.slice(0, 2), [terms('h', 'host', { size: 1, shardSize: 1 })]);
    assert.deepEqual(pairs(one), [['a', 20]]);
    assert.equal(t(one).docCountErrorUpperBound, 0);
    assert.equal(t(one).sumOtherDocCount, 20);
  });

  it('orders by key, by a sub-metric, by a path through a filter', () => {
    const [byKey] = run(data.targets, [terms('h', 'host', { order: [{ by: '_key', desc: true }] })]);
    assert.deepEqual(pairs(byKey).map((p) => p[0]), ['d', 'c', 'b', 'a']);

    const avgBytes = (host: string) => {
      const v = rowsWhere((r) => r.host === host && r.bytes !== undefined).map((r) => r.bytes!);
      return sum(v) / v.length;
    };
    const expected = ['a', 'b', 'c', 'd'].sort((x, y) => avgBytes(y) - avgBytes(x));
    const [bySub] = run(data.targets, [terms('h', 'host', { order: [{ by: 'path', path: ['avg_bytes'], desc: true }], aggs: [metric('avg', 'avg_bytes', 'bytes')] })]);
    assert.deepEqual(pairs(bySub).map((p) => p[0]), expected);
    const first = t(bySub).buckets[0]!.subs[0] as StatsResult;
    assert.equal(first.sum / first.count, avgBytes(expected[0]!));

    const [byStat] = run(data.targets, [terms('h', 'host', { order: [{ by: 'path', path: ['st'], metric: 'min', desc: false }], aggs: [metric('stats', 'st', 'bytes')] })]);
    const minBytes = (host: string) => Math.min(...rowsWhere((r) => r.host === host && r.bytes !== undefined).map((r) => r.bytes!));
    assert.deepEqual(pairs(byStat).map((p) => p[0]), ['a', 'b', 'c', 'd'].sort((x, y) => minBytes(x) - minBytes(y)));

    // order by the doc count of a filter under each bucket: hosts by their number of 500s
    const [byFilter] = run(data.targets, [
      terms('h', 'host', {
        order: [{ by: 'path', path: ['errors'], desc: true }],
        aggs: [{ type: 'filter', name: 'errors', query: { kind: 'term', field: 'status', value: 500 }, aggs: [] }],
      }),
    ]);
    const errors = (host: string) => rowsWhere((r) => r.host === host && r.status === 500).length;
    const hosts = t(byFilter).buckets.map((b) => b.key as string);
    for (let i = 1; i < hosts.length; i++) assert.ok(errors(hosts[i - 1]!) >= errors(hosts[i]!));
  });

  it('rejects order paths that name no value', () => {
    assert.throws(() => run(data.targets, [terms('h', 'host', { order: [{ by: 'path', path: ['nope'], desc: true }] })]), (e: unknown) => e instanceof BadRequestError && e.type === 'aggregation_execution_exception');
    assert.throws(
      () => run(data.targets, [terms('h', 'host', { order: [{ by: 'path', path: ['st'], desc: true }], aggs: [metric('stats', 'st', 'bytes')] })]),
      /a metric name must be specified/,
    );
    assert.throws(
      () => run(data.targets, [terms('h', 'host', { order: [{ by: 'path', path: ['inner'], desc: true }], aggs: [terms('inner', 'level')] })]),
      /Buckets can only be sorted on a sub-aggregator path/,
    );
  });

  it('min_doc_count: 0 lists terms without matches, higher values drop buckets', () => {
    const onlyA = { kind: 'term' as const, field: 'host', value: 'a' };
    const [zeros] = run(data.targets, [terms('h', 'host', { minDocCount: 0 })], onlyA);
    assert.deepEqual(pairs(zeros), [['a', 30], ['b', 0], ['c', 0], ['d', 0]]);
    const [seven] = run(data.targets, [terms('h', 'host', { minDocCount: 7 })]);
    assert.deepEqual(pairs(seven), [['a', 30], ['b', 18]]);
    assert.equal(t(seven).sumOtherDocCount, 0, 'buckets under min_doc_count are not counted as other');
  });

  it('missing puts docs without the field in a bucket of their own', () => {
    const [r] = run(data.targets, [terms('l', 'level', { missing: 'none' })]);
    assert.deepEqual(pairs(r), [['error', 15], ['info', 15], ['none', 15], ['warn', 15]]);
    // a missing value equal to an existing term adds to it
    const [merged] = run(data.targets, [terms('l', 'level', { missing: 'info' })]);
    assert.deepEqual(pairs(merged), [['info', 30], ['error', 15], ['warn', 15]]);
  });

  it('include and exclude: regular expressions, value lists, partitions', () => {
    const [re] = run(data.targets, [terms('h', 'host', { include: { kind: 'regex', regex: /^(?:a|c)$/ } })]);
    assert.deepEqual(pairs(re), [['a', 30], ['c', 6]]);
    const [ex] = run(data.targets, [terms('h', 'host', { exclude: { kind: 'values', values: new Set(['a', 'd']) } })]);
    assert.deepEqual(pairs(ex), [['b', 18], ['c', 6]]);
    const part = (partition: number) =>
      pairs(run(data.targets, [terms('h', 'host', { include: { kind: 'partition', partition, numPartitions: 2 } })])[0]).map((p) => p[0]);
    const [p0, p1] = [part(0), part(1)];
    assert.deepEqual([...p0, ...p1].sort(), ['a', 'b', 'c', 'd']);
    const [num] = run(data.targets, [terms('s', 'status', { include: { kind: 'values', values: new Set(['404', '500']) } })]);
    assert.deepEqual(pairs(num), [[404, 12], [500, 12]]);
  });

  it('numeric, boolean and _index terms', () => {
    const [status, ok, index] = run(data.targets, [terms('s', 'status'), terms('o', 'ok'), terms('i', '_index')]);
    assert.deepEqual(pairs(status), [[200, 36], [404, 12], [500, 12]]);
    assert.equal(t(status).valueKind, 'long');
    assert.deepEqual(pairs(ok), [[0, 40], [1, 20]]);
    assert.equal(t(ok).valueKind, 'boolean');
    assert.deepEqual(pairs(index), [['i1', 40], ['i2', 20]]);
    const [bytes] = run(data.targets, [terms('b', 'bytes', { size: 2, order: [{ by: '_key', desc: false }], missing: 0 })]);
    assert.deepEqual(pairs(bytes), [[0, 9], [10.5, 1]]);
    assert.equal(t(bytes).valueKind, 'double');
  });

  it('nests to any depth', () => {
    const [r] = run(data.targets, [
      terms('h', 'host', {
        aggs: [terms('s', 'status', { aggs: [terms('l', 'level', { missing: '-', aggs: [metric('sum', 'b', 'bytes')] })] })],
      }),
    ]);
    const expect = (host: string, status: number, level: string, rows: Row[]) => {
      const hb = t(r).buckets.find((b) => b.key === host)!;
      const sb = t(hb.subs[0]).buckets.find((b) => b.key === status)!;
      const lb = t(sb.subs[0]).buckets.find((b) => b.key === level)!;
      assert.equal(lb.docCount, rows.length, `${host}/${status}/${level}`);
      assert.equal((lb.subs[0] as StatsResult).sum, sum(rows.map((x) => x.bytes ?? 0)));
    };
    for (const host of ['a', 'b', 'c', 'd']) {
      for (const status of [200, 404, 500]) {
        for (const level of ['info', 'warn', 'error', '-']) {
          const rows = ROWS.filter((x) => x.host === host && x.status === status && (x.level ?? '-') === level);
          if (rows.length > 0) expect(host, status, level, rows);
        }
      }
    }
  });

  it('multi-valued keyword fields count every value, in segment files and memtables', () => {
    const [tags] = run(data.targets, [terms('t', 'tags', { missing: 'none', aggs: [metric('sum', 's', 'status')] })]);
    assert.deepEqual(pairs(tags), [['y', 40], ['none', 20], ['x', 20]]);
    const y = t(tags).buckets[0]!;
    assert.equal((y.subs[0] as StatsResult).sum, sum(rowsWhere((r) => r.tags?.includes('y') === true).map((r) => r.status)));
    // under a parent bucket too, and with include
    const [byHost] = run(data.targets, [terms('h', 'host', { aggs: [terms('t', 'tags', { include: { kind: 'values', values: new Set(['x']) } })] })]);
    for (const b of t(byHost).buckets) {
      assert.deepEqual(pairs(b.subs[0]), [['x', rowsWhere((r) => r.host === b.key && r.tags?.includes('x') === true).length]]);
    }
  });

  it('terms on text fields are a 400', () => {
    assert.throws(() => run(data.targets, [terms('x', '_line')]), /Text fields are not optimised/);
  });
});
