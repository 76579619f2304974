/**
 * `_async_search` as Kibana calls it: submit with its default parameters, the envelope, searches
 * left running in the background and read later, results kept for `keep_alive`, and ids usable
 * only by the actor that submitted them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@elastic/elasticsearch';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';
import { bearer, startNodeWithTwoReaders, type ReadersNode } from '../support/rbac-node.js';

type Json = Record<string, unknown>;

const T0 = Date.UTC(2024, 0, 1);
const DOCS = Array.from({ length: 30 }, (_, i) => ({ _ts: T0 + i * 60_000, _line: `request ${i} ${i % 3 === 0 ? 'failed' : 'served'}`, host: `web-${i % 2}` }));

/**
 * Kibana's Discover body for the last 15 minutes with the query `failed`; the URL parameters are
 * the defaults of elastic/kibana x-pack/plugins/data_enhanced/server/search/request_utils.ts
 * (getDefaultAsyncSubmitParams: batched_reduce_size 64, keep_on_completion false without a
 * search session, wait_for_completion_timeout 100ms, keep_alive 1m, ignore_throttled) plus
 * getDefaultSearchParams (ignore_unavailable, track_total_hits).
 */
const KIBANA_PARAMS = 'batched_reduce_size=64&keep_on_completion=false&wait_for_completion_timeout=100ms&keep_alive=1m&ignore_throttled=true&ignore_unavailable=true&track_total_hits=true';
const KIBANA_BODY = {
  sort: [{ _ts: { order: 'desc', unmapped_type: 'boolean' } }],
  fields: [{ field: '*', include_unmapped: 'true' }, { field: '_ts', format: 'strict_date_optional_time' }],
  size: 500,
  version: true,
  script_fields: {},
  stored_fields: ['*'],
  runtime_mappings: {},
  _source: false,
  query: {
    bool: {
      must: [],
      filter: [
        { multi_match: { type: 'best_fields', query: 'failed', lenient: true } },
        { range: { _ts: { format: 'strict_date_optional_time', gte: '2024-01-01T00:00:00.000Z', lte: '2024-01-01T00:14:59.999Z' } } },
      ],
      should: [],
      must_not: [],
    },
  },
  highlight: { pre_tags: ['@kibana-highlighted-field@'], post_tags: ['@/kibana-highlighted-field@'], fields: { '*': {} }, fragment_size: 2147483647 },
  aggs: { '2': { date_histogram: { field: '_ts', calendar_interval: '1m', time_zone: 'Europe/Paris', min_doc_count: 1 } } },
};

describe('_async_search', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
    assert.equal((await bulkIndex(node.url, 'async-logs', DOCS)).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it("Kibana's submit: answered whole within 100ms, not kept, no id", async () => {
    const before = Date.now();
    const res = await request<Json>(`${node.url}/async-*/_async_search?${KIBANA_PARAMS}`, { body: KIBANA_BODY });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const body = res.body;
    assert.equal('id' in body, false);
    assert.equal(body.is_partial, false);
    assert.equal(body.is_running, false);
    assert.ok((body.start_time_in_millis as number) >= before);
    assert.equal(body.expiration_time_in_millis, (body.start_time_in_millis as number) + 60_000);
    const response = body.response as { hits: { total: Json; hits: Json[] }; aggregations: Json };
    assert.deepEqual(response.hits.total, { value: 5, relation: 'eq' });
    const hit = response.hits.hits[0]!;
    assert.equal('_source' in hit, false, '_source: false');
    assert.deepEqual(hit.fields, { _line: ['request 12 failed'], host: ['web-0'], _ts: ['2024-01-01T00:12:00.000Z'], _lid: [13] });
    assert.deepEqual(hit.highlight, { _line: ['request 12 @kibana-highlighted-field@failed@/kibana-highlighted-field@'] });
    assert.deepEqual(
      (response.aggregations['2'] as { buckets: Json[] }).buckets.map((b) => [b.key_as_string, b.doc_count]),
      [0, 3, 6, 9, 12].map((m) => [`2024-01-01T01:${String(m).padStart(2, '0')}:00.000+01:00`, 1]),
    );
  });

  it('with keep_on_completion (Kibana search sessions) the result is kept: get, status, delete', async () => {
    const submitted = await request<Json>(`${node.url}/async-logs/_async_search?keep_on_completion=true&keep_alive=604800000ms&wait_for_completion_timeout=100ms`, {
      body: { query: { match: { _line: 'failed' } }, size: 2 },
    });
    assert.equal(submitted.status, 200);
    const id = submitted.body.id as string;
    assert.match(id, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(submitted.body.is_running, false);

    const client = new Client({ node: node.url });
    try {
      const got = await client.asyncSearch.get({ id });
      assert.equal(got.body.id, id);
      assert.deepEqual(got.body.response, submitted.body.response);
      const status = await client.asyncSearch.status({ id });
      assert.equal(status.body.is_running, false);
      assert.equal(status.body.completion_status, 200);
      // a get with keep_alive moves the expiration
      const extended = await request<Json>(`${node.url}/_async_search/${id}?keep_alive=2d`);
      assert.ok(Math.abs((extended.body.expiration_time_in_millis as number) - (Date.now() + 2 * 86_400_000)) < 5_000);
      const deleted = await client.asyncSearch.delete({ id });
      assert.deepEqual(deleted.body, { acknowledged: true });
    } finally {
      await client.close();
    }
    const gone = await request<Json>(`${node.url}/_async_search/${id}`);
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.body.error, { root_cause: [{ type: 'resource_not_found_exception', reason: id }], type: 'resource_not_found_exception', reason: id });
    assert.equal((await request(`${node.url}/_async_search/${id}`, { method: 'DELETE' })).status, 404);
  });

  it('a search still running when the wait ends goes on in the background, and is read when done', async () => {
    const submitted = await request<Json>(`${node.url}/async-logs/_async_search?wait_for_completion_timeout=0ms&keep_alive=1m`, {
      body: { query: { match: { _line: 'served' } }, size: 0, aggs: { hosts: { terms: { field: 'host' } } } },
    });
    assert.equal(submitted.status, 200);
    assert.equal(submitted.body.is_running, true);
    assert.equal(submitted.body.is_partial, true);
    const partial = submitted.body.response as { hits: Json; _shards: Json };
    assert.deepEqual(partial.hits, { total: { value: 0, relation: 'gte' }, max_score: null, hits: [] });
    assert.deepEqual(partial._shards, { total: 1, successful: 0, skipped: 0, failed: 0 });

    const done = await request<Json>(`${node.url}/_async_search/${String(submitted.body.id)}?wait_for_completion_timeout=10s`);
    assert.equal(done.body.is_running, false);
    assert.equal(done.body.is_partial, false);
    const response = done.body.response as { hits: { total: Json }; aggregations: { hosts: { buckets: Json[] } } };
    assert.deepEqual(response.hits.total, { value: 20, relation: 'eq' });
    assert.deepEqual(response.aggregations.hosts.buckets, [{ key: 'web-1', doc_count: 10 }, { key: 'web-0', doc_count: 10 }].sort((a, b) => (a.key < b.key ? -1 : 1)));
  });

  it('results are dropped once keep_alive has passed', async () => {
    const submitted = await request<Json>(`${node.url}/async-logs/_async_search?keep_on_completion=true&keep_alive=1s`, { body: { size: 1 } });
    const id = submitted.body.id as string;
    assert.equal((await request(`${node.url}/_async_search/${id}`)).status, 200);
    await new Promise((r) => setTimeout(r, 1_100));
    assert.equal((await request(`${node.url}/_async_search/${id}`)).status, 404);
  });

  it('bad requests fail at submit like _search; scroll and a keep_alive under a second are refused', async () => {
    const badQuery = await request<Json>(`${node.url}/async-logs/_async_search`, { body: { query: { no_such_query: {} } } });
    assert.equal(badQuery.status, 400);
    assert.equal((badQuery.body.error as Json).type, 'parsing_exception');
    assert.equal((await request(`${node.url}/missing-index/_async_search`, { body: {} })).status, 404);
    assert.equal((await request(`${node.url}/async-logs/_async_search?scroll=1m`, { body: {} })).status, 400);
    assert.equal((await request(`${node.url}/async-logs/_async_search?keep_alive=500ms`, { body: {} })).status, 400);
  });
});

describe('_async_search under access control', () => {
  let node: TestNode;
  let keys: ReadersNode['keys'];
  const auth = bearer;

  before(async () => {
    ({ node, keys } = await startNodeWithTwoReaders('bootstrap-for-async-search', ['logs-*']));
    const lines = `{"index":{"_index":"logs-1"}}\n{"_line":"one"}\n{"index":{"_index":"secrets"}}\n{"_line":"two"}\n`;
    assert.equal((await request(`${node.url}/_bulk`, { body: lines, headers: { 'content-type': 'application/x-ndjson', ...auth(keys.admin) } })).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it('an id is usable only by the actor that submitted it; indexes are checked as for _search', async () => {
    const submitted = await request<Json>(`${node.url}/_async_search?keep_on_completion=true`, { body: {}, headers: auth(keys.alice) });
    assert.equal(submitted.status, 200);
    assert.deepEqual((submitted.body.response as { hits: { hits: Json[] } }).hits.hits.map((h) => h._index), ['logs-1']);
    const id = submitted.body.id as string;
    assert.equal((await request(`${node.url}/_async_search/${id}`, { headers: auth(keys.alice) })).status, 200);
    assert.equal((await request(`${node.url}/_async_search/${id}`, { headers: auth(keys.bob) })).status, 404);
    assert.equal((await request(`${node.url}/_async_search/status/${id}`, { headers: auth(keys.bob) })).status, 404);
    assert.equal((await request(`${node.url}/_async_search/${id}`, { method: 'DELETE', headers: auth(keys.bob) })).status, 404);
    assert.equal((await request(`${node.url}/_async_search/${id}`, { headers: auth(keys.alice) })).status, 200);
    assert.equal((await request(`${node.url}/secrets/_async_search`, { body: {}, headers: auth(keys.alice) })).status, 403);
    assert.equal((await request(`${node.url}/_async_search/${id}`)).status, 401);
  });
});
