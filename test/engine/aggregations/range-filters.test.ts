import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type {
  AggResult,
  FiltersResult,
  HistogramResult,
  RangeResult,
  SingleBucketResult,
  StatsResult,
  TermsResult,
} from '../../../src/engine/aggregations/index.js';
import { ROWS, T0, dataSet, metric, rowsWhere, run, sum, terms, type DataSet } from './data.js';

const HOUR = 3_600_000;

function single(r: AggResult | undefined): SingleBucketResult {
  assert.equal(r?.kind, 'single');
  return r as SingleBucketResult;
}

describe('range, filter, filters, missing', () => {
  let data: DataSet;
  before(async () => {
    data = await dataSet();
  });
  after(() => data.close());

  it('range: [from, to) buckets sorted by from then to, overlaps allowed', () => {
    const [r] = run(data.targets, [
      {
        type: 'range',
        name: 'r',
        field: 'bytes',
        ranges: [{ from: 200, to: 400 }, { to: 100 }, { from: 300, key: 'big' }, { from: 100, to: 200 }],
        aggs: [metric('value_count', 'c', 'bytes')],
      },
    ]);
    const count = (lo: number, hi: number) => rowsWhere((x) => x.bytes !== undefined && x.bytes >= lo && x.bytes < hi).length;
    const buckets = (r as RangeResult).buckets;
    assert.deepEqual(
      buckets.map((b) => [b.key, b.from, b.to, b.docCount]),
      [
        [undefined, undefined, 100, count(-Infinity, 100)],
        [undefined, 100, 200, count(100, 200)],
        [undefined, 200, 400, count(200, 400)],
        ['big', 300, undefined, count(300, Infinity)],
      ],
    );
    assert.ok(buckets.every((b) => (b.subs[0] as StatsResult).count === b.docCount));
  });

  it('range with missing, on dates (date_range), and empty buckets stay', () => {
    const [withMissing, dates] = run(data.targets, [
      { type: 'range', name: 'r', field: 'bytes', ranges: [{ to: 1 }, { from: 10_000 }], missing: 0, aggs: [] },
      { type: 'range', name: 'd', field: '_ts', ranges: [{ from: T0, to: T0 + 6 * HOUR }, { from: T0 + 24 * HOUR }], aggs: [] },
    ]);
    assert.deepEqual((withMissing as RangeResult).buckets.map((b) => b.docCount), [9, 0]);
    assert.deepEqual((dates as RangeResult).buckets.map((b) => b.docCount), [12, 12]);
    assert.equal((dates as RangeResult).valueKind, 'date');
  });

  it('filter and missing are single buckets with sub-aggregations', () => {
    const [errors, noLevel] = run(data.targets, [
      { type: 'filter', name: 'f', query: { kind: 'term', field: 'status', value: 500 }, aggs: [metric('sum', 's', 'bytes'), terms('h', 'host')] },
      { type: 'missing', name: 'm', field: 'level', aggs: [metric('value_count', 'c', 'level')] },
    ]);
    const fiveHundreds = rowsWhere((x) => x.status === 500);
    assert.equal(single(errors).docCount, fiveHundreds.length);
    assert.equal((single(errors).subs[0] as StatsResult).sum, sum(fiveHundreds.map((x) => x.bytes ?? 0)));
    assert.equal((single(errors).subs[1] as TermsResult).buckets.reduce((n, b) => n + b.docCount, 0), fiveHundreds.length);
    assert.equal(single(noLevel).docCount, 15);
    assert.equal((single(noLevel).subs[0] as StatsResult).count, 0);
    const [alwaysThere] = run(data.targets, [{ type: 'missing', name: 'm', field: '_ts', aggs: [] }]);
    assert.equal(single(alwaysThere).docCount, 0);
  });

  it('filters: named buckets and the other bucket', () => {
    const [r] = run(data.targets, [
      {
        type: 'filters',
        name: 'f',
        filters: [
          { key: 'errors', query: { kind: 'term', field: 'status', value: 500 } },
          { key: 'hostA', query: { kind: 'term', field: 'host', value: 'a' } },
        ],
        otherBucketKey: '_other_',
        aggs: [metric('max', 'm', 'bytes')],
      },
    ]);
    const buckets = (r as FiltersResult).buckets;
    const other = rowsWhere((x) => x.status !== 500 && x.host !== 'a');
    assert.deepEqual(
      buckets.map((b) => [b.key, b.docCount]),
      [
        ['errors', 12],
        ['hostA', 30],
        ['_other_', other.length],
      ],
    );
    assert.equal((buckets[2]!.subs[0] as StatsResult).max, Math.max(...other.filter((x) => x.bytes !== undefined).map((x) => x.bytes!)));
  });

  it('four levels deep: filters > date_histogram > terms > stats', () => {
    const [r] = run(data.targets, [
      {
        type: 'filters',
        name: 'f',
        filters: [{ key: 'ok', query: { kind: 'term', field: 'ok', value: true } }],
        aggs: [
          {
            type: 'date_histogram',
            name: 'd',
            field: '_ts',
            interval: { kind: 'fixed', ms: 12 * HOUR },
            offset: 0,
            timeZone: 'UTC',
            minDocCount: 0,
            order: [{ by: '_key', desc: false }],
            aggs: [terms('h', 'host', { aggs: [metric('stats', 's', 'status')] })],
          },
        ],
      },
    ]);
    const ok = (r as FiltersResult).buckets[0]!;
    assert.equal(ok.docCount, 20);
    const days = ok.subs[0] as HistogramResult;
    for (const day of days.buckets) {
      for (const hb of (day.subs[0] as TermsResult).buckets) {
        const rows = ROWS.filter((x) => x.ok && x.host === hb.key && x.ts >= (day.key as number) && x.ts < (day.key as number) + 12 * HOUR);
        assert.equal(hb.docCount, rows.length);
        const s = hb.subs[0] as StatsResult;
        assert.deepEqual([s.count, s.sum, s.min, s.max], [rows.length, sum(rows.map((x) => x.status)), Math.min(...rows.map((x) => x.status)), Math.max(...rows.map((x) => x.status))]);
      }
    }
    assert.equal(days.buckets.reduce((n, b) => n + b.docCount, 0), 20);
  });
});
