/** `_msearch`: NDJSON header/body pairs, each answered with its own status. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { bulkIndex, ndjson, request, startTestNode, type TestNode } from '../support/node.js';

interface Hit {
  _index: string;
  _id: string;
  _source: { i: number };
}
interface SearchItem {
  took: number;
  status: number;
  hits: { total: { value: number; relation: string } | number; hits: Hit[] };
  error?: { type: string; reason: string; root_cause: unknown[] };
}
interface MsearchBody {
  took: number;
  responses: SearchItem[];
}
interface ErrorBody {
  error: { type: string; reason: string };
  status: number;
}

const T0 = Date.UTC(2024, 0, 1);

/** fetch refuses GET bodies; Elasticsearch clients and curl send them */
function getWithBody(url: string, body: string): Promise<{ status: number; body: MsearchBody }> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/x-ndjson', 'content-length': Buffer.byteLength(body) };
    const req = http.request(url, { method: 'GET', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as MsearchBody }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('_msearch', () => {
  let node: TestNode;
  const msearch = (path: string, lines: unknown[] | string) =>
    request<MsearchBody>(`${node.url}${path}`, {
      method: 'POST',
      body: typeof lines === 'string' ? lines : ndjson(lines),
      headers: { 'content-type': 'application/x-ndjson' },
    });
  const ids = (item: SearchItem) => item.hits.hits.map((h) => h._source.i).sort((a, b) => a - b);

  before(async () => {
    node = await startTestNode();
    const docs = Array.from({ length: 20 }, (_, i) => ({ i, _line: `line ${i} ${i % 2 ? 'odd' : 'even'}`, level: i % 4 === 0 ? 'error' : 'info', _ts: T0 + i }));
    assert.equal((await bulkIndex(node.url, 'ms-a', docs.slice(0, 10))).status, 200);
    assert.equal((await bulkIndex(node.url, 'ms-b', docs.slice(10))).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it('answers each pair in order, with its own status, bad pairs as error items', async () => {
    const res = await msearch('/_msearch', [
      { index: 'ms-a' },
      { query: { match: { _line: 'odd' } }, size: 100 },
      { index: 'missing' },
      { query: { match_all: {} } },
      { index: 'ms-b' },
      { query: { no_such_query: {} } },
      { index: 'ms-*' },
      { query: { term: { level: 'error' } }, size: 100 },
      { index: 'ms-a' },
      { query: { match_all: {} }, sort: [{ nosuch: 'asc' }] },
      { index: 'ms-a' },
      { size: -1 },
      { index: ['ms-a', 'ms-b'] },
      { size: 0 },
    ]);
    assert.equal(res.status, 200);
    assert.equal(typeof res.body.took, 'number');
    const [odd, missing, unknownQuery, errors, badSort, badSize, both] = res.body.responses;
    assert.equal(res.body.responses.length, 7);

    assert.equal(odd!.status, 200);
    assert.deepEqual(ids(odd!), [1, 3, 5, 7, 9]);
    assert.equal(typeof odd!.took, 'number');

    assert.equal(missing!.status, 404);
    assert.equal(missing!.error!.type, 'index_not_found_exception');
    assert.ok(Array.isArray(missing!.error!.root_cause));

    assert.equal(unknownQuery!.status, 400);
    assert.equal(unknownQuery!.error!.type, 'parsing_exception');
    assert.match(unknownQuery!.error!.reason, /no_such_query/);

    assert.equal(errors!.status, 200);
    assert.deepEqual(ids(errors!), [0, 4, 8, 12, 16]);

    assert.equal(badSort!.status, 400);
    assert.match(badSort!.error!.reason, /No mapping found/);
    assert.equal(badSize!.status, 400);

    assert.deepEqual(both!.hits.total, { value: 20, relation: 'eq' });
  });

  it('gives the same hits as _search for each item', async () => {
    const body = { query: { bool: { must: { match: { _line: 'even' } }, must_not: { term: { level: 'error' } } } }, size: 50 };
    const single = await request<{ hits: { hits: Hit[] } }>(`${node.url}/ms-*/_search`, { body });
    const multi = await msearch('/_msearch', [{ index: 'ms-*' }, body]);
    assert.deepEqual(
      multi.body.responses[0]!.hits.hits.map((h) => h._id),
      single.body.hits.hits.map((h) => h._id),
    );
  });

  it('uses the path index as the default, which a header may override', async () => {
    const res = await msearch('/ms-a/_msearch', [{}, { size: 100 }, { index: 'ms-b' }, { size: 100 }]);
    assert.deepEqual(ids(res.body.responses[0]!), [...Array(10).keys()]);
    assert.deepEqual(ids(res.body.responses[1]!), [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    // an empty header line is `{}` (an empty first line is skipped, as Elasticsearch does)
    const empty = await msearch('/ms-b/_msearch', '\n{"index":"ms-a"}\n{"size":0}\n\n{"size":100}\n');
    assert.deepEqual(ids(empty.body.responses[1]!), [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });

  it('reads index options from headers and the URL', async () => {
    const res = await msearch('/_msearch', [
      { index: 'ms-a,gone', ignore_unavailable: true },
      { size: 0 },
      { index: 'ms-a,gone' },
      { size: 0 },
      { index: 'none-*', allow_no_indices: false },
      { size: 0 },
      { index: 'ms-*', expand_wildcards: 'none' },
      { size: 0 },
      { index: 'ms-a', search_type: 'query_then_fetch', preference: '_local', routing: 'x', request_cache: true, type: '_doc' },
      { size: 0 },
    ]);
    const statuses = res.body.responses.map((r) => r.status);
    assert.deepEqual(statuses, [200, 404, 404, 200, 200]);
    assert.deepEqual(res.body.responses[3]!.hits.total, { value: 0, relation: 'eq' });
    const viaUrl = await msearch('/_msearch?ignore_unavailable=true', [{ index: 'ms-a,gone' }, { size: 0 }]);
    assert.equal(viaUrl.body.responses[0]!.status, 200);
  });

  it('applies rest_total_hits_as_int to every item', async () => {
    const res = await msearch('/_msearch?rest_total_hits_as_int=true', [{ index: 'ms-a' }, { size: 0 }, { index: 'ms-b' }, { size: 0 }]);
    assert.deepEqual(res.body.responses.map((r) => r.hits.total), [10, 10]);
  });

  it('accepts GET, and a last line without a newline; ignores a header left without a body', async () => {
    const get = await getWithBody(`${node.url}/_msearch`, '{"index":"ms-a"}\n{"size":1}');
    assert.equal(get.status, 200);
    assert.equal(get.body.responses.length, 1);
    assert.equal(get.body.responses[0]!.hits.hits.length, 1);
    const dangling = await msearch('/_msearch', '{"index":"ms-a"}\n{"size":1}\n{"index":"ms-b"}\n');
    assert.equal(dangling.body.responses.length, 1);
  });

  it('accepts what Grafana sends', async () => {
    const res = await msearch('/_msearch?max_concurrent_shard_requests=5', [
      { search_type: 'query_then_fetch', ignore_unavailable: true, index: 'ms-*' },
      {
        size: 500,
        query: { bool: { filter: [{ range: { _ts: { gte: T0, lte: T0 + 5, format: 'epoch_millis' } } }, { query_string: { analyze_wildcard: true, query: '*' } }] } },
        sort: [{ _ts: { order: 'desc', unmapped_type: 'boolean' } }, { _doc: { order: 'desc' } }],
        script_fields: {},
        docvalue_fields: ['_ts'],
      },
    ]);
    assert.equal(res.status, 200);
    assert.equal(res.body.responses[0]!.status, 200, JSON.stringify(res.body.responses[0]));
    assert.deepEqual(res.body.responses[0]!.hits.hits.map((h) => h._source.i), [5, 4, 3, 2, 1, 0]);
  });

  it('fails the whole request for malformed NDJSON, as Elasticsearch does', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['{"index":"ms-a"\n{"size":1}\n', 'x_content_parse_exception', /line \[1\]/],
      ['{"index":"ms-a"}\n{"size":\n', 'x_content_parse_exception', /line \[2\]/],
      ['["ms-a"]\n{}\n', 'x_content_parse_exception', /JSON object/],
      ['{"index":"ms-a","colour":"red"}\n{}\n', 'illegal_argument_exception', /key \[colour\] is not supported in the metadata section/],
      ['{"index":"ms-a","search_type":"scan"}\n{}\n', 'illegal_argument_exception', /No search type/],
      ['{"index":"ms-a","ignore_unavailable":"perhaps"}\n{}\n', 'illegal_argument_exception', /perhaps/],
      ['', 'action_request_validation_exception', /no requests added/],
    ];
    for (const [body, type, reason] of cases) {
      const res = await request<ErrorBody>(`${node.url}/_msearch`, { method: 'POST', body, headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(res.status, 400, body);
      assert.equal(res.body.error.type, type, body);
      assert.match(res.body.error.reason, reason, body);
    }
    assert.equal((await msearch('/_msearch?max_concurrent_searches=0', [{}, {}])).status, 400);
  });
});

describe('_msearch with access control on', () => {
  const BOOTSTRAP = 'msearch-bootstrap';
  let node: TestNode;
  let admin = '';
  let reader = '';
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });

  before(async () => {
    node = await startTestNode({ SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: BOOTSTRAP });
    const role = { name: 'admin', database: ['manage_security'], indexes: [{ names: ['*'], permissions: ['read', 'write'] }] };
    assert.equal((await request(`${node.url}/v1/roles`, { body: role, headers: auth(BOOTSTRAP) })).status, 200);
    admin = (await request<{ api_key: string }>(`${node.url}/v1/api_keys`, { body: { name: 'admin', role: 'admin' }, headers: auth(BOOTSTRAP) })).body.api_key;
    const readRole = { name: 'reader', database: [], indexes: [{ names: ['pub-*'], permissions: ['read'] }] };
    assert.equal((await request(`${node.url}/v1/roles`, { body: readRole, headers: auth(admin) })).status, 200);
    reader = (await request<{ api_key: string }>(`${node.url}/v1/api_keys`, { body: { name: 'r', role: 'reader' }, headers: auth(admin) })).body.api_key;
    const lines = [{ index: { _index: 'pub-logs' } }, { _line: 'public' }, { index: { _index: 'private' } }, { _line: 'hidden' }];
    await request(`${node.url}/_bulk`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson', ...auth(admin) } });
  });
  after(async () => {
    await node.destroy();
  });

  it('answers a forbidden index as a 403 item and filters wildcards to readable indexes', async () => {
    const body = ndjson([{ index: 'pub-logs' }, {}, { index: 'private' }, {}, { index: '*' }, {}]);
    const res = await request<MsearchBody>(`${node.url}/_msearch`, { body, headers: { 'content-type': 'application/x-ndjson', ...auth(reader) } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.responses.map((r) => r.status), [200, 403, 200]);
    assert.equal(res.body.responses[1]!.error!.type, 'security_exception');
    assert.deepEqual(res.body.responses[2]!.hits.hits.map((h) => h._index), ['pub-logs']);
  });
});
