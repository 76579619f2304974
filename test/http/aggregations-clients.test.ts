/**
 * The exact requests Grafana's Elasticsearch data source and Kibana's Discover send for their
 * charts (`@timestamp` spelled `_ts`), answered as those tools read them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

type Json = Record<string, unknown>;
const at = (v: unknown, ...path: Array<string | number>): unknown => path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], v);

const T0 = Date.UTC(2024, 0, 1);
const STEP = 30_000;
const HOSTS = ['web-1', 'web-2', 'db-1'];

/** 100 lines every 30 s from T0: latency (i * 7) % 100 + 0.5, hosts in turn. */
const DOCS = Array.from({ length: 100 }, (_, i) => ({
  _ts: T0 + i * STEP,
  _line: `GET /api/${i % 5} took ${(i * 7) % 100}ms`,
  host: HOSTS[i % 3]!,
  latency: ((i * 7) % 100) + 0.5,
  status: i % 10 === 0 ? 500 : 200,
}));

const FROM = T0;
const TO = T0 + 3_600_000 - 1;

function grafanaRange() {
  return {
    bool: {
      filter: [
        { range: { _ts: { gte: FROM, lte: TO, format: 'epoch_millis' } } },
        { query_string: { analyze_wildcard: true, query: '*' } },
      ],
    },
  };
}

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const r = q * (s.length - 1);
  return s[Math.floor(r)]! + (s[Math.ceil(r)]! - s[Math.floor(r)]!) * (r - Math.floor(r));
}

describe('Grafana and Kibana requests', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
    assert.equal((await bulkIndex(node.url, 'logs-2024.01.01', DOCS)).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  /** Grafana sends its queries through _msearch, one header/body pair per panel query. */
  async function grafana(body: object): Promise<Json> {
    const header = { search_type: 'query_then_fetch', ignore_unavailable: true, index: 'logs-*' };
    const res = await request<{ responses: Json[] }>(`${node.url}/_msearch`, {
      body: `${JSON.stringify(header)}\n${JSON.stringify(body)}\n`,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(res.status, 200);
    const item = res.body.responses[0]!;
    assert.equal(item.status, 200, JSON.stringify(item));
    return item;
  }

  it('Grafana: average over a date histogram with fixed_interval, min_doc_count 0 and extended_bounds', async () => {
    const item = await grafana({
      size: 0,
      query: grafanaRange(),
      aggs: {
        '2': {
          date_histogram: { fixed_interval: '30s', field: '_ts', min_doc_count: 0, extended_bounds: { min: FROM, max: TO }, format: 'epoch_millis' },
          aggs: { '1': { avg: { field: 'latency' } } },
        },
      },
    });
    const buckets = at(item, 'aggregations', '2', 'buckets') as Json[];
    assert.equal(buckets.length, 120, 'one bucket per 30 s of the hour');
    buckets.forEach((b, k) => {
      const key = T0 + k * STEP;
      const doc = DOCS[k];
      assert.deepEqual(b, { key_as_string: String(key), key, doc_count: doc ? 1 : 0, '1': { value: doc ? doc.latency : null } });
    });
    assert.deepEqual(at(item, 'hits', 'total'), { value: 100, relation: 'eq' });
  });

  it('Grafana (older): the legacy interval with extended_bounds given as strings', async () => {
    const item = await grafana({
      size: 0,
      query: grafanaRange(),
      aggs: {
        '2': {
          date_histogram: { interval: '10m', field: '_ts', min_doc_count: 0, extended_bounds: { min: String(FROM), max: String(TO) }, format: 'epoch_millis' },
          aggs: { '1': { max: { field: 'latency' } } },
        },
      },
    });
    const buckets = at(item, 'aggregations', '2', 'buckets') as Json[];
    assert.deepEqual(
      buckets.map((b) => [b.key, b.doc_count, at(b, '1', 'value')]),
      [0, 1, 2, 3, 4, 5].map((k) => {
        const docs = DOCS.filter((d) => d._ts >= T0 + k * 600_000 && d._ts < T0 + (k + 1) * 600_000);
        return [T0 + k * 600_000, docs.length, docs.length > 0 ? Math.max(...docs.map((d) => d.latency)) : null];
      }),
    );
  });

  it('Grafana: group by terms (order by _key desc), then date histogram, percentiles metric', async () => {
    const item = await grafana({
      size: 0,
      query: grafanaRange(),
      aggs: {
        '3': {
          terms: { field: 'host', size: 10, order: { _key: 'desc' }, min_doc_count: 1 },
          aggs: {
            '2': {
              date_histogram: { fixed_interval: '20m', field: '_ts', min_doc_count: 0, extended_bounds: { min: FROM, max: TO }, format: 'epoch_millis' },
              aggs: { '1': { percentiles: { field: 'latency', percents: ['25', '50', '75', '95', '99'] } } },
            },
          },
        },
      },
    });
    const hosts = at(item, 'aggregations', '3', 'buckets') as Json[];
    assert.deepEqual(hosts.map((h) => [h.key, h.doc_count]), [['web-2', 33], ['web-1', 34], ['db-1', 33]]);
    for (const h of hosts) {
      const times = at(h, '2', 'buckets') as Json[];
      assert.equal(times.length, 3);
      times.forEach((t, k) => {
        const values = DOCS.filter((d) => d.host === h.key && d._ts >= T0 + k * 1_200_000 && d._ts < T0 + (k + 1) * 1_200_000).map((d) => d.latency);
        assert.equal(t.doc_count, values.length);
        const pct = at(t, '1', 'values') as Json;
        assert.deepEqual(Object.keys(pct), ['25.0', '50.0', '75.0', '95.0', '99.0']);
        if (values.length === 0) assert.equal(pct['50.0'], null);
        for (const p of [25, 50, 75, 95, 99]) {
          if (values.length > 0) assert.ok(Math.abs((pct[`${p}.0`] as number) - quantile(values, p / 100)) < 1e-9, `${String(h.key)} ${k} p${p}`);
        }
      });
    }
  });

  it('Grafana: terms ordered by _count, and by a metric of the bucket', async () => {
    const byCount = await grafana({
      size: 0,
      query: grafanaRange(),
      aggs: { '2': { terms: { field: 'host', size: 2, order: { _count: 'desc' }, min_doc_count: 1 } } },
    });
    assert.deepEqual(at(byCount, 'aggregations', '2'), {
      doc_count_error_upper_bound: 0,
      sum_other_doc_count: 33,
      buckets: [
        { key: 'web-1', doc_count: 34 },
        { key: 'db-1', doc_count: 33 },
      ],
    });
    const byMetric = await grafana({
      size: 0,
      query: grafanaRange(),
      aggs: { '3': { terms: { field: 'host', size: 10, order: { '1': 'desc' }, min_doc_count: 1 }, aggs: { '1': { avg: { field: 'latency' } } } } },
    });
    const avg = (host: string) => {
      const xs = DOCS.filter((d) => d.host === host).map((d) => d.latency);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    const buckets = at(byMetric, 'aggregations', '3', 'buckets') as Json[];
    assert.deepEqual(buckets.map((b) => b.key), [...HOSTS].sort((a, b) => avg(b) - avg(a)));
    for (const b of buckets) assert.ok(Math.abs((at(b, '1', 'value') as number) - avg(b.key as string)) < 1e-9);
  });

  it('Grafana logs: hits sorted newest first with a count histogram', async () => {
    const item = await grafana({
      size: 500,
      query: grafanaRange(),
      sort: [{ _ts: { order: 'desc', unmapped_type: 'boolean' } }, { _doc: { order: 'desc' } }],
      script_fields: {},
      aggs: { '2': { date_histogram: { fixed_interval: '15m', field: '_ts', min_doc_count: 0, extended_bounds: { min: FROM, max: TO }, format: 'epoch_millis' } } },
    });
    const hits = at(item, 'hits', 'hits') as Json[];
    assert.equal(hits.length, 100);
    assert.equal(at(hits[0], '_source', '_ts'), DOCS[99]!._ts);
    assert.deepEqual(
      (at(item, 'aggregations', '2', 'buckets') as Json[]).map((b) => b.doc_count),
      [30, 30, 30, 10],
    );
  });

  it("Kibana Discover: the histogram above the document table, answered with the documents", async () => {
    const body = {
      version: true,
      size: 500,
      sort: [{ _ts: { order: 'desc', unmapped_type: 'boolean' } }],
      aggs: { '2': { date_histogram: { field: '_ts', fixed_interval: '30s', time_zone: 'UTC', min_doc_count: 1 } } },
      stored_fields: ['*'],
      script_fields: {},
      docvalue_fields: [{ field: '_ts', format: 'date_time' }],
      _source: { excludes: [] },
      query: {
        bool: {
          must: [],
          filter: [
            { match_all: {} },
            { range: { _ts: { gte: '2024-01-01T00:00:00.000Z', lte: '2024-01-01T00:29:59.999Z', format: 'strict_date_optional_time' } } },
          ],
          should: [],
          must_not: [],
        },
      },
      highlight: {
        pre_tags: ['@kibana-highlighted-field@'],
        post_tags: ['@/kibana-highlighted-field@'],
        fields: { '*': {} },
        fragment_size: 2147483647,
      },
      track_total_hits: true,
    };
    const res = await request<Json>(`${node.url}/logs-*/_search?ignore_unavailable=true&track_total_hits=true&timeout=30000ms`, { body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(at(res.body, 'hits', 'total'), { value: 60, relation: 'eq' });
    const hits = at(res.body, 'hits', 'hits') as Json[];
    assert.equal(hits.length, 60);
    assert.equal(at(hits[0], '_source', '_ts'), DOCS[59]!._ts);
    const buckets = at(res.body, 'aggregations', '2', 'buckets') as Json[];
    assert.equal(buckets.length, 60);
    buckets.forEach((b, k) => assert.deepEqual(b, { key_as_string: new Date(T0 + k * STEP).toISOString(), key: T0 + k * STEP, doc_count: 1 }));

    const countOnly = await request<Json>(`${node.url}/logs-*/_search`, { body: { ...body, size: 0 } });
    assert.equal((at(countOnly.body, 'hits', 'hits') as Json[]).length, 0);
    assert.deepEqual(at(countOnly.body, 'aggregations'), at(res.body, 'aggregations'));
  });
});
