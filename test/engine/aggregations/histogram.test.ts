import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BadRequestError } from '../../../src/common/errors.js';
import type { AggResult, AggSpec, DateHistogramSpec, HistogramResult, HistogramSpec, StatsResult } from '../../../src/engine/aggregations/index.js';
import type { Query } from '../../../src/query/index.js';
import { HALF_HOUR, ROWS, T0, dataSet, metric, run, service, sum, type DataSet } from './data.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function h(r: AggResult | undefined): HistogramResult {
  assert.equal(r?.kind, 'histogram');
  return r as HistogramResult;
}
const pairs = (r: AggResult | undefined) => h(r).buckets.map((b) => [b.key, b.docCount]);

const histogram = (extra: Partial<HistogramSpec> = {}): AggSpec => ({
  type: 'histogram',
  name: 'h',
  field: 'bytes',
  interval: 100,
  offset: 0,
  minDocCount: 0,
  order: [{ by: '_key', desc: false }],
  aggs: [],
  ...extra,
});

const dateHistogram = (interval: DateHistogramSpec['interval'], extra: Partial<DateHistogramSpec> = {}): AggSpec => ({
  type: 'date_histogram',
  name: 'd',
  field: '_ts',
  interval,
  offset: 0,
  timeZone: 'UTC',
  minDocCount: 0,
  order: [{ by: '_key', desc: false }],
  aggs: [],
  ...extra,
});

/** Reference: counts of rows by the key a function gives, ascending. */
function countBy(keyOf: (r: (typeof ROWS)[number]) => number | undefined): Array<[number, number]> {
  const counts = new Map<number, number>();
  for (const r of ROWS) {
    const k = keyOf(r);
    if (k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => a[0] - b[0]);
}

describe('histogram', () => {
  let data: DataSet;
  before(async () => {
    data = await dataSet();
  });
  after(() => data.close());

  it('buckets by interval and offset', () => {
    const [plain] = run(data.targets, [histogram()]);
    assert.deepEqual(pairs(plain), countBy((r) => (r.bytes === undefined ? undefined : Math.floor(r.bytes / 100) * 100)));
    const [shifted] = run(data.targets, [histogram({ offset: 50 })]);
    assert.deepEqual(pairs(shifted), countBy((r) => (r.bytes === undefined ? undefined : Math.floor((r.bytes - 50) / 100) * 100 + 50)));
    const [fine] = run(data.targets, [histogram({ interval: 0.5, field: 'status', minDocCount: 1 })]);
    assert.deepEqual(pairs(fine), [[200, 36], [404, 12], [500, 12]]);
  });

  it('min_doc_count 0 fills gaps between the first and last bucket; 1 does not', () => {
    const q: Query = {
      kind: 'bool',
      must: [],
      filter: [],
      mustNot: [],
      should: [
        { kind: 'range', field: 'bytes', lt: 100 },
        { kind: 'range', field: 'bytes', gte: 500 },
      ],
    };
    const [filled] = run(data.targets, [histogram()], q);
    assert.deepEqual(pairs(filled), [[0, 8], [100, 0], [200, 0], [300, 0], [400, 0], [500, 9]]);
    const [sparse] = run(data.targets, [histogram({ minDocCount: 1 })], q);
    assert.deepEqual(pairs(sparse), [[0, 8], [500, 9]]);
  });

  it('extended_bounds widen, hard_bounds limit', () => {
    const [wide] = run(data.targets, [histogram({ extendedBounds: { min: -150, max: 800 } })]);
    assert.deepEqual(h(wide).buckets.map((b) => b.key), [-200, -100, 0, 100, 200, 300, 400, 500, 600, 700, 800]);
    assert.equal(h(wide).buckets[0]!.docCount, 0);
    const [hard] = run(data.targets, [histogram({ hardBounds: { min: 100, max: 300 }, extendedBounds: { min: 0, max: 800 } })]);
    assert.deepEqual(h(hard).buckets.map((b) => b.key), [100, 200, 300]);
  });

  it('orders by count; sub-aggregations per bucket', () => {
    const [byCount] = run(data.targets, [histogram({ field: 'status', interval: 100, minDocCount: 1, order: [{ by: '_count', desc: true }] })]);
    assert.deepEqual(pairs(byCount), [[200, 36], [400, 12], [500, 12]]);
    const [withAvg] = run(data.targets, [histogram({ aggs: [metric('sum', 's', 'status')] })]);
    for (const b of h(withAvg).buckets) {
      const rows = ROWS.filter((r) => r.bytes !== undefined && Math.floor(r.bytes / 100) * 100 === b.key);
      assert.equal((b.subs[0] as StatsResult).sum, sum(rows.map((r) => r.status)));
    }
  });

  it('too many buckets is a 400 before they are built', () => {
    const svc = service(64 << 20, 1000);
    assert.throws(
      () => run(data.targets, [histogram({ interval: 0.01, extendedBounds: { min: 0, max: 1e9 } })], undefined, svc),
      (e: unknown) => e instanceof BadRequestError && e.type === 'too_many_buckets_exception' && e.details.max_buckets === 1000,
    );
    assert.equal(svc.breaker.used, svc.cache.bytes, "the failed request gave its memory back");
  });

  it('a keyword field is a 400', () => {
    assert.throws(() => run(data.targets, [histogram({ field: 'host' })]), /not supported for aggregation \[histogram\]/);
  });
});

describe('date_histogram', () => {
  let data: DataSet;
  before(async () => {
    data = await dataSet();
  });
  after(() => data.close());

  it('fixed intervals in UTC', () => {
    const [hourly] = run(data.targets, [dateHistogram({ kind: 'fixed', ms: HOUR })]);
    assert.equal(h(hourly).buckets.length, 30);
    assert.ok(h(hourly).buckets.every((b, i) => b.key === T0 + i * HOUR && b.docCount === 2));
    const [ninety] = run(data.targets, [dateHistogram({ kind: 'fixed', ms: 90 * 60_000 })]);
    assert.deepEqual(pairs(ninety), countBy((r) => Math.floor(r.ts / 5_400_000) * 5_400_000));
  });

  it('calendar days, weeks, months and quarters in UTC', () => {
    const [days, weeks, months, quarters] = run(data.targets, [
      dateHistogram({ kind: 'calendar', unit: 'day' }),
      dateHistogram({ kind: 'calendar', unit: 'week' }, { name: 'w' }),
      dateHistogram({ kind: 'calendar', unit: 'month' }, { name: 'm', extendedBounds: { max: Date.UTC(2024, 4, 15) } }),
      dateHistogram({ kind: 'calendar', unit: 'quarter' }, { name: 'q' }),
    ]);
    assert.deepEqual(pairs(days), [[T0, 48], [T0 + DAY, 12]]);
    // 2024-03-30 is a Saturday: its week began on Monday the 25th
    assert.deepEqual(pairs(weeks), [[Date.UTC(2024, 2, 25), 60]]);
    assert.deepEqual(pairs(months), [[Date.UTC(2024, 2, 1), 60], [Date.UTC(2024, 3, 1), 0], [Date.UTC(2024, 4, 1), 0]]);
    assert.deepEqual(pairs(quarters), [[Date.UTC(2024, 0, 1), 60]]);
  });

  it('a named time zone: local days, one of them 23 hours long', () => {
    const [days] = run(data.targets, [dateHistogram({ kind: 'calendar', unit: 'day' }, { timeZone: 'Europe/Paris', extendedBounds: { max: Date.UTC(2024, 3, 1, 12) } })]);
    // Paris is UTC+1 until 2024-03-31 01:00Z, UTC+2 after
    assert.deepEqual(pairs(days), [
      [Date.UTC(2024, 2, 29, 23), 46],
      [Date.UTC(2024, 2, 30, 23), 14],
      [Date.UTC(2024, 2, 31, 22), 0],
    ]);
    const [hours] = run(data.targets, [dateHistogram({ kind: 'calendar', unit: 'hour' }, { timeZone: 'Europe/Paris' })]);
    assert.equal(h(hours).buckets.length, 30);
    assert.ok(h(hours).buckets.every((b) => b.docCount === 2));
  });

  it('fixed offsets zones and offset shift bucket starts', () => {
    const [plusOne] = run(data.targets, [dateHistogram({ kind: 'fixed', ms: 90 * 60_000 }, { timeZone: '+01:00' })]);
    const local = (t: number) => Math.floor((t + HOUR) / 5_400_000) * 5_400_000 - HOUR;
    assert.deepEqual(pairs(plusOne), countBy((r) => local(r.ts)));
    const [shifted] = run(data.targets, [dateHistogram({ kind: 'calendar', unit: 'day' }, { offset: 6 * HOUR })]);
    assert.deepEqual(pairs(shifted), [[T0 - DAY + 6 * HOUR, 12], [T0 + 6 * HOUR, 48]]);
  });

  it('extended_bounds fill empty buckets around the data (Grafana), hard_bounds cut', () => {
    const q: Query = { kind: 'range', field: '_ts', gte: T0 + 6 * HOUR, lt: T0 + 12 * HOUR };
    const [r] = run(data.targets, [dateHistogram({ kind: 'fixed', ms: 6 * HOUR }, { extendedBounds: { min: T0 - 12 * HOUR, max: T0 + 36 * HOUR } })], q);
    assert.deepEqual(
      pairs(r),
      [-12, -6, 0, 6, 12, 18, 24, 30, 36].map((k) => [T0 + k * HOUR, k === 6 ? 12 : 0]),
    );
    const [cut] = run(data.targets, [dateHistogram({ kind: 'fixed', ms: 6 * HOUR }, { hardBounds: { min: T0 + 6 * HOUR, max: T0 + 12 * HOUR } })]);
    assert.deepEqual(pairs(cut), [[T0 + 6 * HOUR, 12], [T0 + 12 * HOUR, 12]]);
  });

  it('min_doc_count 1 skips empty buckets; metrics per bucket; order by count', () => {
    const q: Query = { kind: 'term', field: 'status', value: 500 };
    const [r] = run(data.targets, [dateHistogram({ kind: 'fixed', ms: 12 * HOUR }, { minDocCount: 1, aggs: [metric('avg', 'a', 'bytes')] })], q);
    const rows = ROWS.filter((x) => x.status === 500);
    assert.deepEqual(pairs(r), countBy((x) => (x.status === 500 ? Math.floor(x.ts / (12 * HOUR)) * 12 * HOUR : undefined)));
    const first = h(r).buckets[0]!;
    const inFirst = rows.filter((x) => x.ts < (first.key as number) + 12 * HOUR && x.bytes !== undefined);
    const avg = first.subs[0] as StatsResult;
    assert.equal(avg.sum / avg.count, sum(inFirst.map((x) => x.bytes!)) / inFirst.length);
    const [byCount] = run(data.targets, [dateHistogram({ kind: 'calendar', unit: 'day' }, { order: [{ by: '_count', desc: false }] })]);
    assert.deepEqual(pairs(byCount), [[T0 + DAY, 12], [T0, 48]]);
  });

  it('an unknown time zone is a 400', () => {
    assert.throws(() => run(data.targets, [dateHistogram({ kind: 'calendar', unit: 'day' }, { timeZone: 'Mars/Olympus' })]), /unknown time zone/);
    assert.equal(HALF_HOUR, 1_800_000);
  });
});
