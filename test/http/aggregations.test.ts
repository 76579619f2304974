import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

type Json = Record<string, unknown>;

/** The value at a path of property names and indexes in a parsed response. */
const at = (v: unknown, ...path: Array<string | number>): unknown => path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], v);
const atNum = (v: unknown, ...path: Array<string | number>): number => at(v, ...path) as number;

const T0 = Date.UTC(2024, 0, 1);
const QUARTER = 15 * 60_000;

interface Doc {
  i: number;
  _ts: number;
  _line: string;
  host: string;
  status: number;
  took: number;
  ok: boolean;
  level?: string;
}

const DOCS: Doc[] = Array.from({ length: 40 }, (_, i) => {
  const d: Doc = {
    i,
    _ts: T0 + i * QUARTER,
    _line: `GET /page/${i} ${i % 2 === 0 ? 'ok' : 'slow'}`,
    host: ['alpha', 'beta', 'gamma'][i % 3]!,
    status: [200, 200, 404, 500][i % 4]!,
    took: i + 0.25,
    ok: i % 2 === 0,
  };
  if (i % 5 !== 4) d.level = 'info';
  return d;
});

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('aggregations over HTTP', () => {
  let node: TestNode;
  const search = (body: object, path = '/web-*/_search') => request<Json>(`${node.url}${path}`, { body });
  const aggs = async (body: object, path?: string) => {
    const res = await search({ size: 0, ...body }, path);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.aggregations as Json;
  };

  before(async () => {
    node = await startTestNode();
    assert.equal((await bulkIndex(node.url, 'web-a', DOCS.slice(0, 30))).status, 200);
    assert.equal((await bulkIndex(node.url, 'web-b', DOCS.slice(30))).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it('size 0: totals and aggregations, no hits', async () => {
    const res = await search({ size: 0, track_total_hits: true, aggs: { n: { value_count: { field: 'status' } } } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.hits, { total: { value: 40, relation: 'eq' }, max_score: null, hits: [] });
    assert.deepEqual(res.body.aggregations, { n: { value: 40 } });
  });

  it('metric shapes, with nulls when nothing matched', async () => {
    const a = await aggs({
      aggs: {
        avg: { avg: { field: 'took' } },
        sum: { sum: { field: 'took' } },
        min: { min: { field: 'status' } },
        max: { max: { field: '_ts' } },
        st: { stats: { field: 'status' } },
        card: { cardinality: { field: 'host' } },
        none: { avg: { field: 'nope' } },
        nomin: { min: { field: 'nope' } },
        nostats: { stats: { field: 'nope' } },
      },
    });
    const took = DOCS.map((d) => d.took);
    assert.deepEqual(a.avg, { value: sum(took) / 40 });
    assert.deepEqual(a.sum, { value: sum(took) });
    assert.deepEqual(a.min, { value: 200 });
    assert.deepEqual(a.max, { value: DOCS[39]!._ts, value_as_string: new Date(DOCS[39]!._ts).toISOString() });
    assert.deepEqual(a.st, { count: 40, min: 200, max: 500, avg: sum(DOCS.map((d) => d.status)) / 40, sum: sum(DOCS.map((d) => d.status)) });
    assert.deepEqual(a.card, { value: 3 });
    assert.deepEqual(a.none, { value: null });
    assert.deepEqual(a.nomin, { value: null });
    assert.deepEqual(a.nostats, { count: 0, min: null, max: null, avg: null, sum: 0 });
  });

  it('extended_stats as Elasticsearch 7.10 reports it', async () => {
    const a = await aggs({ aggs: { e: { extended_stats: { field: 'status', sigma: 1 } } } });
    const xs = DOCS.map((d) => d.status);
    const mean = sum(xs) / xs.length;
    const variance = sum(xs.map((x) => (x - mean) ** 2)) / xs.length;
    const e = a.e;
    assert.equal(atNum(e, 'count'), 40);
    assert.equal(atNum(e, 'sum_of_squares'), sum(xs.map((x) => x * x)));
    assert.ok(Math.abs(atNum(e, 'variance') - variance) < 1e-6);
    assert.ok(Math.abs(atNum(e, 'variance_sampling') - (variance * 40) / 39) < 1e-6);
    assert.ok(Math.abs(atNum(e, 'std_deviation') - Math.sqrt(variance)) < 1e-9);
    assert.ok(Math.abs(atNum(e, 'std_deviation_bounds', 'upper') - (mean + Math.sqrt(variance))) < 1e-9);
    assert.deepEqual(Object.keys(at(e, 'std_deviation_bounds') as Json), ['upper', 'lower', 'upper_population', 'lower_population', 'upper_sampling', 'lower_sampling']);
  });

  it('percentiles: keyed by Java-style percent names, or as a list; strings accepted as percents', async () => {
    const a = await aggs({
      aggs: {
        p: { percentiles: { field: 'took', percents: ['50', 95] } },
        l: { percentiles: { field: 'took', percents: [50], keyed: false } },
        d: { percentiles: { field: 'took' } },
      },
    });
    const sorted = DOCS.map((d) => d.took).sort((x, y) => x - y);
    const q = (p: number) => {
      const r = p * 39;
      return sorted[Math.floor(r)]! + (sorted[Math.ceil(r)]! - sorted[Math.floor(r)]!) * (r - Math.floor(r));
    };
    assert.deepEqual(a.p, { values: { '50.0': q(0.5), '95.0': q(0.95) } });
    assert.deepEqual(a.l, { values: [{ key: 50, value: q(0.5) }] });
    assert.deepEqual(Object.keys(at(a, 'd', 'values') as Json), ['1.0', '5.0', '25.0', '50.0', '75.0', '95.0', '99.0']);
  });

  it('terms: counts, error bounds, other docs, key_as_string for dates and booleans', async () => {
    const a = await aggs({
      aggs: {
        hosts: { terms: { field: 'host', size: 2 } },
        status: { terms: { field: 'status', order: { _key: 'asc' } } },
        ok: { terms: { field: 'ok' } },
        ts: { terms: { field: '_ts', size: 1, order: { _key: 'asc' } } },
        kw: { terms: { field: 'host.keyword', size: 1, order: { _key: 'desc' } } },
      },
    });
    assert.deepEqual(a.hosts, {
      doc_count_error_upper_bound: 0,
      sum_other_doc_count: 13,
      buckets: [
        { key: 'alpha', doc_count: 14 },
        { key: 'beta', doc_count: 13 },
      ],
    });
    assert.deepEqual(at(a, 'status', 'buckets'), [
      { key: 200, doc_count: 20 },
      { key: 404, doc_count: 10 },
      { key: 500, doc_count: 10 },
    ]);
    assert.deepEqual(at(a, 'ok', 'buckets'), [
      { key: 0, key_as_string: 'false', doc_count: 20 },
      { key: 1, key_as_string: 'true', doc_count: 20 },
    ]);
    assert.deepEqual(at(a, 'ts', 'buckets'), [{ key: T0, key_as_string: '2024-01-01T00:00:00.000Z', doc_count: 1 }]);
    assert.deepEqual(at(a, 'kw', 'buckets'), [{ key: 'gamma', doc_count: 13 }]);
  });

  it('typed_keys names every aggregation by its result type', async () => {
    const res = await request<Json>(`${node.url}/web-*/_search?typed_keys=true`, {
      body: {
        size: 0,
        aggs: {
          a: { avg: { field: 'took' } },
          s: { sum: { field: 'took' } },
          mi: { min: { field: 'took' } },
          ma: { max: { field: 'took' } },
          st: { stats: { field: 'took' } },
          es: { extended_stats: { field: 'took' } },
          vc: { value_count: { field: 'took' } },
          c: { cardinality: { field: 'host' } },
          p: { percentiles: { field: 'took' } },
          th: { top_hits: { size: 1 } },
          ts: { terms: { field: 'host' }, aggs: { inner: { terms: { field: 'status' }, aggs: { d: { terms: { field: 'took', size: 1 } } } } } },
          h: { histogram: { field: 'took', interval: 10 } },
          dh: { date_histogram: { field: '_ts', calendar_interval: 'day' } },
          r: { range: { field: 'took', ranges: [{ to: 5 }] } },
          dr: { date_range: { field: '_ts', ranges: [{ from: 'now-1y' }] } },
          f: { filter: { term: { host: 'alpha' } } },
          fs: { filters: { filters: { x: { match_all: {} } } } },
          m: { missing: { field: 'level' } },
        },
      },
    });
    assert.equal(res.status, 200);
    const a = res.body.aggregations as Json;
    assert.deepEqual(Object.keys(a), [
      'avg#a', 'sum#s', 'min#mi', 'max#ma', 'stats#st', 'extended_stats#es', 'value_count#vc', 'cardinality#c',
      'tdigest_percentiles#p', 'top_hits#th', 'sterms#ts', 'histogram#h', 'date_histogram#dh', 'range#r', 'date_range#dr',
      'filter#f', 'filters#fs', 'missing#m',
    ]);
    const host = at(a, 'sterms#ts', 'buckets', 0) as Json;
    assert.ok('lterms#inner' in host);
    assert.ok('dterms#d' in (at(host, 'lterms#inner', 'buckets', 0) as Json));
  });

  it('date_histogram: key_as_string, time zones, formats, keyed, min_doc_count', async () => {
    const a = await aggs({
      aggs: {
        utc: { date_histogram: { field: '_ts', fixed_interval: '3h' } },
        paris: { date_histogram: { field: '_ts', calendar_interval: '1d', time_zone: 'Europe/Paris' } },
        offset: { date_histogram: { field: '_ts', fixed_interval: '3h', time_zone: '+01:00', format: 'yyyy-MM-dd HH:mm' } },
        keyed: { date_histogram: { field: '_ts', interval: '5h', keyed: true, format: 'epoch_millis' } },
      },
    });
    assert.deepEqual(at(a, 'utc', 'buckets'), [0, 1, 2, 3].map((k) => ({
      key_as_string: new Date(T0 + k * 3 * 3_600_000).toISOString(),
      key: T0 + k * 3 * 3_600_000,
      doc_count: k < 3 ? 12 : 4,
    })));
    assert.deepEqual(at(a, 'paris', 'buckets'), [{ key_as_string: '2024-01-01T00:00:00.000+01:00', key: T0 - 3_600_000, doc_count: 40 }]);
    assert.deepEqual(
      (at(a, 'offset', 'buckets') as Json[]).map((b) => [b.key_as_string, b.doc_count]),
      [['2024-01-01 00:00', 8], ['2024-01-01 03:00', 12], ['2024-01-01 06:00', 12], ['2024-01-01 09:00', 8]],
    );
    // fixed intervals start at multiples of the interval since the epoch: T0 is 2h into one
    const k0 = T0 - 2 * 3_600_000;
    const keyed: Json = {};
    for (const [k, n] of [[k0, 12], [k0 + 5 * 3_600_000, 20], [k0 + 10 * 3_600_000, 8]] as const) keyed[String(k)] = { key_as_string: String(k), key: k, doc_count: n };
    assert.deepEqual(at(a, 'keyed', 'buckets'), keyed);
  });

  // found by the aggregation fuzzer: an interval below a double's precision near the keys made
  // no next bucket, and building the buckets ran until the process was out of memory
  it('a histogram interval too small for its values is a 400, not an endless loop', async () => {
    for (const field of ['_ts', 'took']) {
      const res = await search({ size: 0, aggs: { h: { histogram: { field, interval: 7.17840589724257e-199 } } } });
      assert.equal(res.status, 400, `${field}: ${JSON.stringify(res.body).slice(0, 300)}`);
      assert.match(JSON.stringify(res.body), /too small|too many buckets/i);
    }
    assert.equal((await request(`${node.url}/health/livez`)).status, 200);
  });

  it('histogram and range keys print doubles as Elasticsearch does', async () => {
    const a = await aggs({
      aggs: {
        h: { histogram: { field: 'took', interval: 20, keyed: true } },
        r: { range: { field: 'took', ranges: [{ to: 10 }, { from: 10, to: 20.5 }, { from: 20.5, key: 'top' }] } },
        rk: { range: { field: 'took', keyed: true, ranges: [{ to: 10 }] } },
        dr: { date_range: { field: '_ts', format: 'yyyy-MM-dd HH:mm', ranges: [{ to: '2024-01-01 05:00' }, { from: '2024-01-01 05:00' }] } },
      },
    });
    assert.deepEqual(at(a, 'h', 'buckets'), { '0.0': { key: 0, doc_count: 20 }, '20.0': { key: 20, doc_count: 20 } });
    assert.deepEqual(at(a, 'r', 'buckets'), [
      { key: '*-10.0', to: 10, doc_count: 10 },
      { key: '10.0-20.5', from: 10, to: 20.5, doc_count: 11 },
      { key: 'top', from: 20.5, doc_count: 19 },
    ]);
    assert.deepEqual(at(a, 'rk', 'buckets'), { '*-10.0': { to: 10, doc_count: 10 } });
    assert.deepEqual(at(a, 'dr', 'buckets'), [
      { key: '*-2024-01-01 05:00', to: T0 + 5 * 3_600_000, to_as_string: '2024-01-01 05:00', doc_count: 20 },
      { key: '2024-01-01 05:00-*', from: T0 + 5 * 3_600_000, from_as_string: '2024-01-01 05:00', doc_count: 20 },
    ]);
  });

  it('filter, filters (keyed, anonymous, other bucket), missing, meta', async () => {
    const a = await aggs({
      aggs: {
        f: { filter: { range: { status: { gte: 400 } } }, aggs: { t: { max: { field: 'took' } } }, meta: { panel: 7 } },
        fs: { filters: { filters: { errors: { term: { status: 500 } }, slow: { match: { _line: 'slow' } } }, other_bucket_key: 'rest' } },
        anon: { filters: { filters: [{ term: { host: 'alpha' } }, { term: { host: 'beta' } }] } },
        m: { missing: { field: 'level' } },
      },
    });
    assert.deepEqual(a.f, { meta: { panel: 7 }, doc_count: 20, t: { value: 39.25 } });
    assert.deepEqual(at(a, 'fs', 'buckets'), { errors: { doc_count: 10 }, slow: { doc_count: 20 }, rest: { doc_count: 20 } });
    assert.deepEqual(at(a, 'anon', 'buckets'), [{ doc_count: 14 }, { doc_count: 13 }]);
    assert.deepEqual(a.m, { doc_count: 8 });
  });

  it('top_hits: sources of the best docs, source filtering, sort values when sorted', async () => {
    const a = await aggs({
      aggs: {
        by: {
          terms: { field: 'host', size: 1 },
          aggs: { last: { top_hits: { size: 2, sort: [{ took: { order: 'desc' } }], _source: { includes: ['i', 'host'] } } } },
        },
      },
    });
    const hits = at(a, 'by', 'buckets', 0, 'last', 'hits');
    assert.deepEqual(at(hits, 'total'), { value: 14, relation: 'eq' });
    assert.deepEqual(
      (at(hits, 'hits') as Json[]).map((h) => [h._index, h._source, h.sort]),
      [
        ['web-b', { i: 39, host: 'alpha' }, [39.25]],
        ['web-b', { i: 36, host: 'alpha' }, [36.25]],
      ],
    );
  });

  it('aggregations see only what the query matches', async () => {
    const res = await search({ size: 1, query: { term: { host: 'beta' } }, aggs: { s: { sum: { field: 'took' } } } });
    assert.equal(atNum(res.body, 'hits', 'total', 'value'), 13);
    assert.equal((at(res.body, 'hits', 'hits') as Json[]).length, 1);
    assert.deepEqual(res.body.aggregations, { s: { value: sum(DOCS.filter((d) => d.host === 'beta').map((d) => d.took)) } });
  });

  it('the result cache serves segment files and shows in the svc_aggregation_cache_entries_* gauges', async () => {
    assert.equal((await request(`${node.url}/web-a/_flush`, { method: 'POST' })).status, 200);
    const body = { size: 0, aggs: { h: { terms: { field: 'host' } } } };
    const first = await search(body, '/web-a/_search');
    const second = await search(body, '/web-a/_search');
    assert.deepEqual(second.body.aggregations, first.body.aggregations);
    const metrics = await (await fetch(`${node.url}/metrics`)).text();
    const count = /^svc_aggregation_cache_entries_count (\d+)/m.exec(metrics);
    const bytes = /^svc_aggregation_cache_entries_bytes (\d+)/m.exec(metrics);
    assert.ok(count && Number(count[1]) >= 1, metrics.slice(0, 200));
    assert.ok(bytes && Number(bytes[1]) > 0);
  });

  it('Elasticsearch errors for bad aggregation bodies', async () => {
    const cases: Array<[object, number, string, RegExp]> = [
      [{ x: { nope: {} } }, 400, 'parsing_exception', /Unknown aggregation type \[nope\]/],
      [{ x: { avg: { field: 'took' }, sum: { field: 'took' } } }, 400, 'parsing_exception', /Found two aggregation type definitions in \[x\]/],
      [{ x: { avg: { field: 'took' }, aggs: { y: { sum: { field: 'took' } } } } }, 400, 'aggregation_initialization_exception', /cannot accept sub-aggregations/],
      [{ 'a>b': { avg: { field: 'took' } } }, 400, 'parsing_exception', /Invalid aggregation name/],
      [{ x: { terms: { field: 'host', bogus: 1 } } }, 400, 'x_content_parse_exception', /\[terms\] unknown field \[bogus\]/],
      [{ x: { terms: { field: 'host', size: 0 } } }, 400, 'illegal_argument_exception', /\[size\] must be greater than 0/],
      [{ x: { percentiles: { field: 'host' } } }, 400, 'illegal_argument_exception', /\[keyword\] is not supported for aggregation \[percentiles\]/],
      [{ x: { percentiles: { field: 'took', percents: [101] } } }, 400, 'illegal_argument_exception', /percent must be in \[0,100\]/],
      [{ x: { terms: { field: '_line' } } }, 400, 'illegal_argument_exception', /Text fields are not optimised/],
      [{ x: { date_histogram: { field: '_ts', calendar_interval: '2d' } } }, 400, 'illegal_argument_exception', /could not be parsed as a calendar interval/],
      [{ x: { date_histogram: { field: '_ts', fixed_interval: '1M' } } }, 400, 'illegal_argument_exception', /unit is missing or unrecognized/],
      [{ x: { date_histogram: { field: '_ts' } } }, 400, 'illegal_argument_exception', /Invalid interval specified/],
      [{ x: { date_histogram: { field: '_ts', fixed_interval: '1h', time_zone: 'Nowhere/Land' } } }, 400, 'illegal_argument_exception', /unknown time zone/],
      [{ x: { histogram: { field: 'took', interval: 0 } } }, 400, 'illegal_argument_exception', /\[interval\] must be >0/],
      [{ x: { terms: { field: 'host', order: { missing_agg: 'desc' } } } }, 400, 'aggregation_execution_exception', /Invalid aggregator order path/],
      [{ x: { avg: { script: 'doc.took' } } }, 400, 'illegal_argument_exception', /\[script\] is not supported/],
      [{ x: { composite: { sources: [] } } }, 400, 'illegal_argument_exception', /\[composite\] of \[x\] is not supported/],
    ];
    for (const [body, status, type, reason] of cases) {
      const res = await search({ size: 0, aggs: body });
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(at(res.body, 'error', 'type'), type, JSON.stringify(res.body));
      assert.match(at(res.body, 'error', 'reason') as string, reason);
    }
  });

  it('exists and _exists_ on a field that is not a string field are a 400', async () => {
    for (const q of [{ exists: { field: 'status' } }, { exists: { field: 'ok' } }]) {
      const res = await search({ query: q });
      assert.equal(res.status, 400);
      assert.equal(at(res.body, 'error', 'type'), 'query_shard_exception');
      assert.match(at(res.body, 'error', 'reason') as string, /string fields/);
    }
    assert.equal((await request<Json>(`${node.url}/web-*/_search?q=_exists_:took`)).status, 400);
    assert.equal(atNum((await search({ query: { exists: { field: 'level' } } })).body, 'hits', 'total', 'value'), 32);
    assert.equal(atNum((await search({ query: { exists: { field: '_ts' } } })).body, 'hits', 'total', 'value'), 40);
  });
});
