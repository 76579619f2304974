import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

interface Hit {
  _index: string;
  _id: string;
  _score: number | null;
  _source: { _line: string; _ts: number; _lid: number; [k: string]: unknown };
  sort?: unknown[];
}
interface SearchBody {
  took: number;
  timed_out: boolean;
  hits: { total: { value: number; relation: string }; max_score: number | null; hits: Hit[] };
}
interface ErrorBody {
  error: { type: string; reason: string; [k: string]: unknown };
  status: number;
}

const T0 = Date.UTC(2024, 0, 1);

describe('_search with q=', () => {
  let node: TestNode;
  const search = (path: string) => request<SearchBody>(`${node.url}${path}`);
  const lines = async (path: string) => (await search(path)).body.hits.hits.map((h) => h._source._line).sort();

  before(async () => {
    node = await startTestNode();
    const docs = [
      { _line: 'GET /index.html 200 user=alice', status: 200, level: 'info', service: 'web', _ts: T0 },
      { _line: 'POST /login 401 user=bob failed password', status: 401, level: 'warn', service: 'auth', _ts: T0 + 1000 },
      { _line: 'ERROR database connection refused', status: 500, level: 'error', service: 'db', _ts: T0 + 2000 },
      { _line: 'error: timeout while reading from upstream', status: 504, level: 'error', service: 'web', _ts: T0 + 3000 },
      { _line: 'user alice changed password', level: 'info', service: 'auth', _ts: T0 + 4000, tags: ['security', 'audit'] },
      { _line: 'Connection reset by peer (errno=104)', level: 'warn', service: 'web-edge', _ts: T0 + 5000, 'http.method': 'GET' },
    ];
    assert.equal((await bulkIndex(node.url, 'logs-a', docs.slice(0, 3))).status, 200);
    assert.equal((await bulkIndex(node.url, 'logs-b', docs.slice(3))).status, 200);
    assert.equal((await bulkIndex(node.url, 'other', [{ _line: 'unrelated alice entry', _ts: T0 + 6000 }])).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it('has the seed response shape', async () => {
    const res = await search('/logs-a/_search?q=alice');
    assert.equal(res.status, 200);
    assert.equal(typeof res.body.took, 'number');
    assert.equal(res.body.timed_out, false);
    assert.deepEqual(res.body.hits.total, { value: 1, relation: 'eq' });
    assert.ok('max_score' in res.body.hits);
    const hit = res.body.hits.hits[0]!;
    assert.equal(hit._index, 'logs-a');
    assert.match(hit._id, /^\d+$/);
    assert.ok('_score' in hit);
    assert.deepEqual(Object.keys(hit._source).filter((k) => k.startsWith('_')).sort(), ['_lid', '_line', '_ts']);
  });

  it('matches bare words on _line case-insensitively, and keywords whole', async () => {
    assert.deepEqual(await lines('/logs-*/_search?q=error'), ['ERROR database connection refused', 'error: timeout while reading from upstream']);
    assert.deepEqual(await lines('/logs-*/_search?q=level:error&size=10'), ['ERROR database connection refused', 'error: timeout while reading from upstream']);
    assert.equal((await search('/logs-*/_search?q=level:ERROR')).body.hits.total.value, 0, 'keywords are exact');
    assert.equal((await search('/logs-*/_search?q=service:web')).body.hits.total.value, 2, 'keywords are not split');
    assert.equal((await search('/logs-*/_search?q=errno')).body.hits.total.value, 1);
  });

  it('supports phrases, booleans, +/- and grouping', async () => {
    assert.deepEqual(await lines('/logs-*/_search?q="connection refused"'), ['ERROR database connection refused']);
    assert.equal((await search('/logs-*/_search?q="refused connection"')).body.hits.total.value, 0);
    assert.equal((await search('/logs-*/_search?q=alice AND password')).body.hits.total.value, 1);
    assert.equal((await search('/logs-*/_search?q=alice OR bob')).body.hits.total.value, 3);
    assert.equal((await search('/logs-*/_search?q=alice %26%26 NOT password')).body.hits.total.value, 1);
    assert.equal((await search('/logs-*/_search?q=%2Bpassword -bob')).body.hits.total.value, 1);
    assert.equal((await search('/logs-*/_search?q=(alice OR bob) AND level:warn')).body.hits.total.value, 1);
    assert.equal((await search('/logs-*/_search?q=password&default_operator=AND')).body.hits.total.value, 2);
    assert.equal((await search('/logs-*/_search?q=alice password&default_operator=AND')).body.hits.total.value, 1);
    assert.equal((await search('/logs-*/_search?q=alice password')).body.hits.total.value, 3);
    assert.equal((await search('/logs-*/_search?q=web&df=service')).body.hits.total.value, 2);
  });

  it('supports ranges on numbers and on _ts by epoch ms and ISO date', async () => {
    assert.equal((await search('/logs-*/_search?q=status:[400 TO 500]')).body.hits.total.value, 2);
    assert.equal((await search('/logs-*/_search?q=status:{401 TO 504}')).body.hits.total.value, 1);
    assert.equal((await search('/logs-*/_search?q=status:[401 TO 504}')).body.hits.total.value, 2);
    assert.equal((await search('/logs-*/_search?q=status:>=500')).body.hits.total.value, 2);
    assert.equal((await search('/logs-*/_search?q=status:<401')).body.hits.total.value, 1);
    assert.equal((await search(`/logs-*/_search?q=_ts:>=${T0 + 4000}`)).body.hits.total.value, 2);
    assert.equal((await search(`/logs-*/_search?q=_ts:[${T0 + 1000} TO ${T0 + 2000}]`)).body.hits.total.value, 2);
    assert.equal((await search('/logs-*/_search?q=_ts:[2024-01-01T00:00:01Z TO *]')).body.hits.total.value, 5);
    assert.equal((await search('/logs-*/_search?q=_ts:<"2024-01-01T00:00:01Z"')).body.hits.total.value, 1);
    assert.equal((await search('/logs-*/_search?q=_ts:<2024-01-01T00\\:00\\:01Z')).body.hits.total.value, 1);
  });

  it('supports wildcards, _exists_ and escapes', async () => {
    assert.equal((await search('/logs-*/_search?q=passw*')).body.hits.total.value, 2);
    assert.equal((await search('/logs-*/_search?q=up?tream')).body.hits.total.value, 1);
    assert.equal((await search('/logs-*/_search?q=service:web*')).body.hits.total.value, 3);
    assert.equal((await search('/logs-*/_search?q=_exists_:status')).status, 400, '_exists_ applies to string fields only');
    assert.equal((await search('/logs-*/_search?q=_exists_:level')).body.hits.total.value, 6);
    assert.equal((await search('/logs-*/_search?q=_exists_:tags')).body.hits.total.value, 1);
    assert.equal((await search('/logs-*/_search?q=tags:audit')).body.hits.total.value, 1);
    assert.equal((await search('/logs-*/_search?q=http.method:GET')).body.hits.total.value, 1);
    assert.equal((await search('/logs-*/_search?q=service:web\\-edge')).body.hits.total.value, 1);
  });

  it('answers a syntax error with 400 naming the position', async () => {
    const res = await request<ErrorBody>(`${node.url}/logs-*/_search?q=${encodeURIComponent('(alice AND')}`);
    assert.equal(res.status, 400);
    assert.equal(res.body.status, 400);
    assert.match(JSON.stringify(res.body.error), /position/);
  });

  it('resolves comma lists, patterns, _all and reports missing indexes', async () => {
    assert.equal((await search('/logs-a,logs-b/_search?q=alice')).body.hits.total.value, 2);
    assert.equal((await search('/_all/_search?q=alice')).body.hits.total.value, 3);
    assert.equal((await search('/_search?q=alice')).body.hits.total.value, 3);
    assert.equal((await search('/*/_search?q=alice')).body.hits.total.value, 3);
    assert.equal((await search('/nomatch-*/_search')).body.hits.total.value, 0);
    const missing = await request<ErrorBody>(`${node.url}/nope/_search`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, 'index_not_found_exception');
    assert.equal((await search('/nope,logs-a/_search?ignore_unavailable=true&q=alice')).body.hits.total.value, 1);
    const noIndices = await request<ErrorBody>(`${node.url}/nomatch-*/_search?allow_no_indices=false`);
    assert.equal(noIndices.status, 404);
  });

  it('pages with from and size, sorts newest first by default, and sorts by fields', async () => {
    const all = await search('/logs-*/_search?size=100');
    const ts = all.body.hits.hits.map((h) => h._source._ts);
    assert.deepEqual(ts, [...ts].sort((a, b) => b - a), 'default is newest first');
    assert.equal(all.body.hits.hits.length, 6);
    const page = await search('/logs-*/_search?from=2&size=2');
    assert.deepEqual(page.body.hits.hits.map((h) => h._source._ts), ts.slice(2, 4));
    assert.equal(page.body.hits.total.value, 6);
    assert.equal((await search('/logs-*/_search')).body.hits.hits.length, 6, 'default size is 10');
    const asc = await search('/logs-*/_search?sort=_ts:asc');
    assert.deepEqual(asc.body.hits.hits.map((h) => h._source._ts), [...ts].reverse());
    const byStatus = await search('/logs-*/_search?sort=status:desc&q=status:>0');
    assert.deepEqual(byStatus.body.hits.hits.map((h) => h._source.status), [504, 500, 401, 200]);
    const window = await request<ErrorBody>(`${node.url}/logs-*/_search?from=9995&size=10`);
    assert.equal(window.status, 400);
    assert.match(window.body.error.reason, /Result window is too large/);
    const negative = await request<ErrorBody>(`${node.url}/logs-*/_search?size=-1`);
    assert.equal(negative.status, 400);
    const notNumber = await request<ErrorBody>(`${node.url}/logs-*/_search?size=ten`);
    assert.equal(notNumber.status, 400);
  });

  it('honours track_total_hits', async () => {
    const limited = await search('/logs-*/_search?track_total_hits=2&size=0');
    assert.deepEqual(limited.body.hits.total, { value: 2, relation: 'gte' });
    const exact = await search('/logs-*/_search?track_total_hits=true&size=0');
    assert.deepEqual(exact.body.hits.total, { value: 6, relation: 'eq' });
    const none = await search('/logs-*/_search?track_total_hits=false');
    assert.equal(none.body.hits.total, undefined);
    const asInt = await request<{ hits: { total: number } }>(`${node.url}/logs-*/_search?rest_total_hits_as_int=true`);
    assert.equal(asInt.body.hits.total, 6);
  });
});
