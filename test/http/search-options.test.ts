/** `_search` request options over HTTP (URL and body forms), `_count`, and legacy type paths. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

interface Hit {
  _index: string;
  _id: string;
  _version?: number;
  _score: number | null;
  _source?: Record<string, unknown> & { i: number };
  fields?: Record<string, unknown[]>;
  sort?: unknown[];
}
interface SearchBody {
  took: number;
  terminated_early?: boolean;
  _shards: { total: number };
  hits: { total?: { value: number; relation: string } | number; max_score: number | null; hits: Hit[] };
}
interface ErrorBody {
  error: { type: string; reason: string };
  status: number;
}

const T0 = Date.UTC(2024, 0, 1);
const N = 30;
const DOCS = Array.from({ length: N }, (_, i) => ({
  i,
  _line: `request ${i} ${i % 5 === 0 ? 'slow' : 'fast'} path /p${i % 3}`,
  level: ['info', 'warn', 'error'][i % 3],
  status: [200, 404, 500][i % 3],
  bytes: (i * 7) % 11,
  host: { name: `h${i % 4}`, ip: `10.0.0.${i % 4}` },
  ...(i % 2 === 0 ? { region: i % 4 === 0 ? 'eu' : 'us' } : {}),
  _ts: T0 + i * 1000,
}));

describe('_search options', () => {
  let node: TestNode;
  const post = (path: string, body?: unknown) => request<SearchBody>(`${node.url}${path}`, body === undefined ? {} : { body: body as object });
  const get = (path: string) => request<SearchBody>(`${node.url}${path}`);
  const iOf = (res: { body: SearchBody }) => res.body.hits.hits.map((h) => h._source!.i);
  const fails = async (path: string, body?: unknown): Promise<ErrorBody> => {
    const res = await request<ErrorBody>(`${node.url}${path}`, body === undefined ? {} : { body: body as object });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    return res.body;
  };

  before(async () => {
    node = await startTestNode();
    assert.equal((await bulkIndex(node.url, 'opts', DOCS)).status, 200);
    assert.equal((await bulkIndex(node.url, 'opts-other', [{ i: 100, _line: 'other index', _ts: T0 }])).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it('pages with from and size in the body or the URL (the URL wins)', async () => {
    const sort = [{ i: 'asc' }];
    assert.deepEqual(iOf(await post('/opts/_search', { from: 5, size: 3, sort })), [5, 6, 7]);
    assert.deepEqual(iOf(await post('/opts/_search?from=10&size=2', { from: 5, size: 3, sort })), [10, 11]);
    assert.equal((await post('/opts/_search', { size: 0 })).body.hits.hits.length, 0);
    assert.equal((await fails('/opts/_search', { from: -1 })).error.type, 'illegal_argument_exception');
    assert.match((await fails('/opts/_search', { from: 9999, size: 2 })).error.reason, /Result window is too large/);
    assert.equal((await fails('/opts/_search', { size: 'ten' })).error.type, 'x_content_parse_exception');
  });

  it('sorts newest first by default and returns the sort values', async () => {
    const res = await post('/opts/_search', { size: 3 });
    assert.deepEqual(iOf(res), [29, 28, 27]);
    assert.equal(res.body.hits.hits[0]!.sort![0], T0 + 29_000);
    assert.equal(res.body.hits.max_score, null, 'no scores unless sorted by _score');
  });

  it('sorts on several keys: keywords, numbers, _ts, _doc, asc and desc', async () => {
    const res = await post('/opts/_search', { size: 6, sort: [{ level: 'asc' }, { bytes: { order: 'desc' } }, '_doc'] });
    const expected = DOCS.filter((d) => d.level === 'error')
      .sort((a, b) => b.bytes - a.bytes || a.i - b.i)
      .slice(0, 6)
      .map((d) => d.i);
    assert.deepEqual(iOf(res), expected);
    assert.deepEqual(res.body.hits.hits[0]!.sort!.slice(0, 2), ['error', 10]);
    assert.deepEqual(iOf(await post('/opts/_search', { size: 3, sort: [{ _ts: 'asc' }] })), [0, 1, 2]);
    assert.deepEqual(iOf(await post('/opts/_search', { size: 3, sort: ['_doc'] })), [0, 1, 2]);
    assert.deepEqual(iOf(await post('/opts/_search', { size: 3, sort: { _doc: { order: 'desc' } } })), [29, 28, 27]);
    assert.deepEqual(iOf(await get('/opts/_search?size=3&sort=status:desc,i:asc')), [2, 5, 8]);
    assert.deepEqual(iOf(await post('/opts/_search', { size: 2, sort: [{ 'host.name': 'desc' }, { i: 'desc' }] })), [27, 23]);
  });

  it('sorts by _score, with scores and max_score', async () => {
    const res = await post('/opts/_search', {
      size: 30,
      query: { bool: { should: [{ match: { _line: 'slow' } }, { match: { level: 'error' } }] } },
      sort: ['_score', { i: 'asc' }],
    });
    const first = res.body.hits.hits[0]!;
    assert.ok(first._score! > res.body.hits.hits[res.body.hits.hits.length - 1]!._score!);
    assert.equal(res.body.hits.max_score, first._score);
    assert.deepEqual(
      res.body.hits.hits.filter((h) => h._score === first._score).map((h) => h._source!.i),
      DOCS.filter((d) => d.i % 5 === 0 && d.level === 'error').map((d) => d.i),
    );
  });

  it('places docs without a value by missing, and needs unmapped_type for unmapped fields', async () => {
    const last = await post('/opts/_search', { size: 30, sort: [{ region: { order: 'asc', missing: '_last' } }, { i: 'asc' }] });
    assert.deepEqual(iOf(last).slice(0, 4), [0, 4, 8, 12]);
    assert.equal(last.body.hits.hits[29]!.sort![0], null);
    const first = await post('/opts/_search', { size: 3, sort: [{ region: { order: 'asc', missing: '_first' } }, { i: 'asc' }] });
    assert.deepEqual(iOf(first), [1, 3, 5]);

    const unmapped = await post('/opts/_search', { size: 3, sort: [{ nosuch: { order: 'desc', unmapped_type: 'boolean' } }, { i: 'asc' }] });
    assert.equal(unmapped.status, 200);
    assert.deepEqual(iOf(unmapped), [0, 1, 2]);
    const err = await fails('/opts/_search', { sort: [{ nosuch: 'desc' }] });
    assert.equal(err.error.type, 'query_shard_exception');
    assert.match(err.error.reason, /No mapping found for \[nosuch\] in order to sort on/);
    assert.match((await fails('/opts/_search', { sort: ['_line'] })).error.reason, /Text fields are not optimised/);
    assert.match((await fails('/opts/_search', { sort: [{ i: 'up' }] })).error.reason, /asc.*desc/);
    assert.match((await fails('/opts/_search', { sort: [{ i: { missing: 0 } }] })).error.reason, /missing/);
  });

  it('filters _source with true, false, includes and excludes, in the body and the URL', async () => {
    const q = { query: { term: { i: 1 } } };
    assert.equal((await post('/opts/_search', { ...q, _source: false })).body.hits.hits[0]!._source, undefined);
    assert.deepEqual((await post('/opts/_search', { ...q, _source: true })).body.hits.hits[0]!._source, { ...DOCS[1], _lid: 2 });
    assert.deepEqual((await post('/opts/_search', { ...q, _source: 'host.*' })).body.hits.hits[0]!._source, { host: DOCS[1]!.host });
    assert.deepEqual((await post('/opts/_search', { ...q, _source: ['i', 'level'] })).body.hits.hits[0]!._source, { i: 1, level: 'warn' });
    assert.deepEqual(
      (await post('/opts/_search', { ...q, _source: { includes: ['h*', 'i'], excludes: ['*.ip'] } })).body.hits.hits[0]!._source,
      { i: 1, host: { name: 'h1' } },
    );
    assert.deepEqual((await get('/opts/_search?q=i:1&_source_includes=level,status')).body.hits.hits[0]!._source, { level: 'warn', status: 404 });
    assert.deepEqual((await get('/opts/_search?q=i:1&_source=level')).body.hits.hits[0]!._source, { level: 'warn' });
    assert.equal((await get('/opts/_search?q=i:1&_source=false')).body.hits.hits[0]!._source, undefined);
    const excluded = (await get('/opts/_search?q=i:1&_source_excludes=_line,host,region,_lid,_ts')).body.hits.hits[0]!._source;
    assert.deepEqual(excluded, { i: 1, level: 'warn', status: 404, bytes: 7 });
  });

  it('honours track_total_hits as a boolean or a number, in the body', async () => {
    assert.deepEqual((await post('/opts/_search', { size: 0, track_total_hits: 10 })).body.hits.total, { value: 10, relation: 'gte' });
    assert.deepEqual((await post('/opts/_search', { size: 0, track_total_hits: 100 })).body.hits.total, { value: 30, relation: 'eq' });
    assert.deepEqual((await post('/opts/_search', { size: 0, track_total_hits: true })).body.hits.total, { value: 30, relation: 'eq' });
    assert.equal((await post('/opts/_search', { size: 0, track_total_hits: false })).body.hits.total, undefined);
    assert.equal((await fails('/opts/_search', { track_total_hits: 'lots' })).status, 400);
  });

  it('counts up to 10,000 hits when track_total_hits is not given, every hit for a scroll or an integer total', async () => {
    const many = Array.from({ length: 10_050 }, (_, i) => ({ _line: `many ${i}`, _ts: T0 + i }));
    assert.equal((await bulkIndex(node.url, 'many', many)).status, 200);
    assert.deepEqual((await get('/many/_search?size=3')).body.hits.total, { value: 10_000, relation: 'gte' });
    assert.deepEqual((await get('/many/_search?size=3&track_total_hits=true')).body.hits.total, { value: 10_050, relation: 'eq' });
    assert.equal((await get('/many/_search?size=0&rest_total_hits_as_int=true')).body.hits.total, 10_050);
    assert.deepEqual((await get('/many/_search?size=3&scroll=1m')).body.hits.total, { value: 10_050, relation: 'eq' });
    assert.deepEqual((await get('/many/_count')).body, { count: 10_050, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } });
  });

  it('answers totals as a number with rest_total_hits_as_int, which needs accurate totals', async () => {
    assert.equal((await get('/opts/_search?size=0&rest_total_hits_as_int=true')).body.hits.total, 30);
    const err = await fails('/opts/_search?rest_total_hits_as_int=true&track_total_hits=5');
    assert.match(err.error.reason, /rest_total_hits_as_int/);
  });

  it('pages with search_after on the sort values', async () => {
    const sort = [{ level: 'desc' }, { i: 'asc' }];
    const full = iOf(await post('/opts/_search', { size: 30, sort }));
    const seen: number[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const res = await post('/opts/_search', { size: 7, sort, ...(after ? { search_after: after } : {}) });
      if (res.body.hits.hits.length === 0) break;
      seen.push(...iOf(res));
      after = res.body.hits.hits[res.body.hits.hits.length - 1]!.sort;
    }
    assert.deepEqual(seen, full);

    // the default sort pages too, newest first
    const page = await post('/opts/_search', { size: 2 });
    const next = await post('/opts/_search', { size: 2, search_after: page.body.hits.hits[1]!.sort });
    assert.deepEqual(iOf(next), [27, 26]);

    assert.match((await fails('/opts/_search', { from: 1, search_after: [1], sort })).error.reason, /from/);
    assert.match((await fails('/opts/_search', { search_after: [1], sort })).error.reason, /search_after/);
    assert.equal((await fails('/opts/_search', { search_after: 5, sort })).error.type, 'x_content_parse_exception');
  });

  it('accepts timeout, and refuses one that is not a time value', async () => {
    assert.equal((await post('/opts/_search', { timeout: '10s', size: 1 })).status, 200);
    assert.equal((await get('/opts/_search?timeout=5000ms&size=1')).status, 200);
    assert.equal((await fails('/opts/_search', { timeout: 'soon' })).status, 400);
  });

  it('stops counting per segment at terminate_after', async () => {
    const res = await post('/opts/_search', { terminate_after: 5, size: 30 });
    assert.equal(res.body.terminated_early, true);
    assert.deepEqual(res.body.hits.total, { value: 5, relation: 'eq' });
    const url = await get('/opts/_search?terminate_after=3&size=30');
    assert.equal(url.body.hits.hits.length, 3);
    assert.equal((await post('/opts/_search', { terminate_after: 100 })).body.terminated_early, undefined);
  });

  it('answers docvalue_fields from _source under fields, by field type', async () => {
    const res = await post('/opts/_search', {
      query: { term: { i: 3 } },
      docvalue_fields: ['status', 'host.name.keyword', { field: '_ts' }, { field: 'level', format: 'use_field_mapping' }, 'region', 'nosuch'],
    });
    assert.deepEqual(res.body.hits.hits[0]!.fields, {
      status: [200],
      'host.name.keyword': ['h3'],
      _ts: [new Date(T0 + 3000).toISOString()],
      level: ['info'],
    });
    const millis = await post('/opts/_search', { query: { term: { i: 3 } }, docvalue_fields: [{ field: '_ts', format: 'epoch_millis' }] });
    assert.deepEqual(millis.body.hits.hits[0]!.fields, { _ts: [String(T0 + 3000)] });
    const pattern = await post('/opts/_search', { query: { term: { i: 4 } }, docvalue_fields: ['host.*', '*egion'] });
    assert.deepEqual(pattern.body.hits.hits[0]!.fields, { 'host.name': ['h0'], 'host.ip': ['10.0.0.0'], region: ['eu'] });
    const url = await get('/opts/_search?q=i:4&docvalue_fields=bytes,level');
    assert.deepEqual(url.body.hits.hits[0]!.fields, { bytes: [6], level: ['warn'] });
    const text = await fails('/opts/_search', { docvalue_fields: ['_line'] });
    assert.match(text.error.reason, /fielddata is unsupported on fields of type \[text\]/);
  });

  it('answers the fields option from _source, text fields included', async () => {
    const res = await post('/opts/_search', { query: { term: { i: 2 } }, fields: ['_line', 'host.*', { field: '_ts', format: 'epoch_millis' }], _source: false });
    assert.equal(res.body.hits.hits[0]!._source, undefined);
    assert.deepEqual(res.body.hits.hits[0]!.fields, {
      _line: ['request 2 fast path /p2'],
      'host.name': ['h2'],
      'host.ip': ['10.0.0.2'],
      _ts: [String(T0 + 2000)],
    });
  });

  it('drops _source for stored_fields _none_, and for stored fields unless _source is asked for', async () => {
    const none = await post('/opts/_search', { query: { term: { i: 1 } }, stored_fields: '_none_' });
    assert.equal(none.body.hits.hits[0]!._source, undefined);
    assert.match(none.body.hits.hits[0]!._id, /^\d+$/);
    assert.equal((await get('/opts/_search?q=i:1&stored_fields=_none_')).body.hits.hits[0]!._source, undefined);
    assert.equal((await post('/opts/_search', { query: { term: { i: 1 } }, stored_fields: ['*'] })).body.hits.hits[0]!._source, undefined);
    const withSource = await post('/opts/_search', { query: { term: { i: 1 } }, stored_fields: ['*'], _source: ['i'] });
    assert.deepEqual(withSource.body.hits.hits[0]!._source, { i: 1 });
  });

  it('returns _version with version: true', async () => {
    assert.equal((await post('/opts/_search', { size: 1, version: true })).body.hits.hits[0]!._version, 1);
    assert.equal((await get('/opts/_search?size=1&version=true')).body.hits.hits[0]!._version, 1);
    assert.equal((await post('/opts/_search', { size: 1 })).body.hits.hits[0]!._version, undefined);
  });

  it('accepts the shard and cluster tuning parameters tools send, and checks their values', async () => {
    const tuned = await get(
      '/opts/_search?size=1&typed_keys=true&pre_filter_shard_size=1&max_concurrent_shard_requests=5&batched_reduce_size=512' +
        '&ccs_minimize_roundtrips=false&allow_partial_search_results=true&search_type=query_then_fetch&request_cache=true' +
        '&ignore_throttled=true&preference=_local&routing=r1',
    );
    assert.equal(tuned.status, 200);
    assert.equal(tuned.body.hits.hits.length, 1);
    assert.match((await fails('/opts/_search?search_type=scan')).error.reason, /No search type for \[scan\]/);
    assert.equal((await fails('/opts/_search?max_concurrent_shard_requests=0')).status, 400);
    assert.equal((await fails('/opts/_search?pre_filter_shard_size=many')).error.type, 'number_format_exception');
    assert.equal((await fails('/opts/_search?allow_partial_search_results=maybe')).status, 400);
  });

  it('resolves indexes with ignore_unavailable, allow_no_indices and expand_wildcards', async () => {
    assert.equal((await get('/opts,missing/_search?ignore_unavailable=true&size=0')).body._shards.total, 1);
    assert.equal((await get('/opts,missing/_search?size=0')).status, 404);
    assert.equal((await get('/nothing-*/_search?size=0')).status, 200);
    assert.equal((await get('/nothing-*/_search?allow_no_indices=false')).status, 404);
    assert.equal((await get('/opts*/_search?size=0&expand_wildcards=open')).body._shards.total, 2);
    assert.equal((await get('/opts*/_search?size=0&expand_wildcards=open,hidden')).body._shards.total, 2);
    assert.equal((await get('/opts*/_search?size=0&expand_wildcards=none')).body._shards.total, 0);
    assert.equal((await get('/opts*,opts-other/_search?size=0&expand_wildcards=closed')).body._shards.total, 1);
    assert.equal((await fails('/opts*/_search?expand_wildcards=sideways')).status, 400);
  });

  it('reads a JSON body sent with GET', async () => {
    const body = JSON.stringify({ query: { term: { i: 7 } } });
    const res = await new Promise<{ status: number; body: SearchBody }>((resolve, reject) => {
      const req = http.request(`${node.url}/opts/_search`, { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (r) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode!, body: JSON.parse(text) as SearchBody }));
      });
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(res.status, 200);
    assert.deepEqual(iOf(res), [7]);
  });

  it('accepts what Grafana sends for a logs query', async () => {
    const res = await post('/opts/_search?max_concurrent_shard_requests=5', {
      size: 5,
      query: {
        bool: {
          filter: [
            { range: { _ts: { gte: T0, lte: T0 + 10_000, format: 'epoch_millis' } } },
            { query_string: { analyze_wildcard: true, query: 'level:error' } },
          ],
        },
      },
      sort: { _ts: { order: 'desc', unmapped_type: 'boolean' } },
      script_fields: {},
      docvalue_fields: ['_ts'],
      highlight: { fields: { '*': {} }, pre_tags: ['@HL@'], post_tags: ['@/HL@'], fragment_size: 2147483647 },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(iOf(res), [8, 5, 2]);
    assert.deepEqual(res.body.hits.hits[0]!.fields, { _ts: [new Date(T0 + 8000).toISOString()] });
    assert.match((await fails('/opts/_search', { script_fields: { x: { script: 'doc.i' } } })).error.reason, /script_fields/);
  });

  it('answers legacy type paths like the typeless ones', async () => {
    const typed = await post('/opts/_doc/_search', { query: { term: { level: 'warn' } }, size: 100 });
    const typeless = await post('/opts/_search', { query: { term: { level: 'warn' } }, size: 100 });
    assert.equal(typed.status, 200);
    assert.deepEqual(typed.body.hits.hits.map((h) => h._id), typeless.body.hits.hits.map((h) => h._id));
    assert.equal((await get('/opts/logs/_search?q=level:warn')).body.hits.hits.length, 10);
  });
});

describe('_count', () => {
  let node: TestNode;
  const count = (path: string, body?: unknown) =>
    request<{ count: number; terminated_early?: boolean; _shards: { total: number }; error?: { type: string } }>(
      `${node.url}${path}`,
      body === undefined ? {} : { body: body as object },
    );

  before(async () => {
    node = await startTestNode();
    assert.equal((await bulkIndex(node.url, 'cnt', DOCS)).status, 200);
    assert.equal((await bulkIndex(node.url, 'cnt2', DOCS.slice(0, 4))).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it('counts with q=, a body query, or everything, on index and type paths', async () => {
    assert.deepEqual(await count('/cnt/_count').then((r) => [r.status, r.body.count, r.body._shards.total]), [200, 30, 1]);
    assert.equal((await count('/cnt/_count?q=level:warn')).body.count, 10);
    assert.equal((await count('/cnt/_count', { query: { range: { status: { gte: 400 } } } })).body.count, 20);
    assert.equal((await count('/cnt/_doc/_count?q=level:warn')).body.count, 10);
    assert.equal((await count('/cnt/_doc/_count', { query: { term: { level: 'info' } } })).body.count, 10);
    assert.equal((await count('/_count')).body.count, 34);
    assert.equal((await count('/cnt*/_count?q=i:1')).body.count, 2);
  });

  it('stops at terminate_after and says so', async () => {
    const res = await count('/cnt/_count?terminate_after=4');
    assert.equal(res.body.count, 4);
    assert.equal(res.body.terminated_early, true);
  });

  it('refuses body keys other than query, and bad queries', async () => {
    const res = await count('/cnt/_count', { query: { match_all: {} }, size: 1 });
    assert.equal(res.status, 400);
    assert.equal(res.body.error!.type, 'parsing_exception');
    assert.equal((await count('/cnt/_count', { query: { nope: {} } })).status, 400);
    assert.equal((await count('/missing/_count')).status, 404);
  });
});
