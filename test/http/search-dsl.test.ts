/** The Query DSL in `_search` bodies over HTTP: every query kind, failures, and q= cross-checks. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

interface Hit {
  _id: string;
  _score: number | null;
  _source: { i: number; [k: string]: unknown };
}
interface SearchBody {
  hits: { total: { value: number }; max_score: number | null; hits: Hit[] };
}
interface ErrorBody {
  error: { type: string; reason: string };
  status: number;
}

const NOW = Date.now();
const MINUTE = 60_000;
const LINES = [
  'GET /index.html completed in 12ms',
  'user alice logged in from 10.0.0.1',
  'ERROR database connection refused',
  'GET /api/v1/items completed in 40ms',
  'redirect to login page',
  'ERROR upstream timeout after 30s',
  'user bob logged out',
  'GET /missing not found',
  'ERROR database disk full',
  'cache warmed in 5ms',
  'redirect to https',
  'ERROR gateway timeout',
];
const STATUS = [200, 404, 500, 200, 301, 503, 200, 404, 500, 200, 302, 504];
const DOCS = LINES.map((line, i) => ({
  i,
  _line: line,
  level: ['info', 'warn', 'error'][i % 3],
  status: STATUS[i],
  latency: i * 1.5,
  ok: STATUS[i]! < 400,
  host: `web-${i % 4}`,
  user: { name: ['alice', 'bob', 'carol'][i % 3] },
  ...(i % 4 === 0 ? { tags: ['audit', `t${i}`] } : {}),
  _ts: NOW - i * 10 * MINUTE,
}));

describe('Query DSL over HTTP', () => {
  let node: TestNode;
  const search = (body: unknown, path = '/dsl/_search') => request<SearchBody>(`${node.url}${path}`, { body: body as object });
  /** the `i` of every hit, ascending */
  const found = async (query: unknown): Promise<number[]> => {
    const res = await search({ query, size: 100 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.hits.hits.map((h) => h._source.i).sort((a, b) => a - b);
  };
  const fails = async (body: unknown, status = 400): Promise<ErrorBody> => {
    const res = await request<ErrorBody>(`${node.url}/dsl/_search`, { body: body as object });
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.status, status);
    return res.body;
  };

  before(async () => {
    node = await startTestNode();
    assert.equal((await bulkIndex(node.url, 'dsl', DOCS)).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it('match_all and match_none', async () => {
    assert.deepEqual(await found({ match_all: {} }), [...Array(12).keys()]);
    assert.deepEqual(await found({ match_all: { boost: 2 } }), [...Array(12).keys()]);
    assert.deepEqual(await found({ match_none: {} }), []);
  });

  it('match with operator, on text and keyword fields', async () => {
    assert.deepEqual(await found({ match: { _line: 'error' } }), [2, 5, 8, 11]);
    assert.deepEqual(await found({ match: { _line: 'database refused' } }), [2, 8]);
    assert.deepEqual(await found({ match: { _line: { query: 'database refused', operator: 'and' } } }), [2]);
    assert.deepEqual(await found({ match: { _line: { query: 'database refused full', minimum_should_match: 2 } } }), [2, 8]);
    assert.deepEqual(await found({ match: { level: 'warn' } }), [1, 4, 7, 10]);
    assert.deepEqual(await found({ match: { status: 404 } }), [1, 7]);
  });

  it('match_phrase with slop and match_phrase_prefix', async () => {
    assert.deepEqual(await found({ match_phrase: { _line: 'connection refused' } }), [2]);
    assert.deepEqual(await found({ match_phrase: { _line: 'refused connection' } }), []);
    assert.deepEqual(await found({ match_phrase: { _line: 'database refused' } }), []);
    assert.deepEqual(await found({ match_phrase: { _line: { query: 'database refused', slop: 1 } } }), [2]);
    assert.deepEqual(await found({ match_phrase_prefix: { _line: 'database d' } }), [8]);
    assert.deepEqual(await found({ match_phrase_prefix: { _line: { query: 'user b' } } }), [6]);
  });

  it('multi_match over several fields', async () => {
    assert.deepEqual(await found({ multi_match: { query: 'alice', fields: ['_line', 'user.name'] } }), [0, 1, 3, 6, 9]);
    assert.deepEqual(await found({ multi_match: { query: 'alice', fields: ['_line'] } }), [1]);
  });

  it('query_string with default_field, fields, default_operator and analyze_wildcard', async () => {
    assert.deepEqual(await found({ query_string: { query: 'level:error AND status:>=503' } }), [5, 11]);
    assert.deepEqual(await found({ query_string: { query: 'timeout', default_field: '_line' } }), [5, 11]);
    assert.deepEqual(await found({ query_string: { query: 'web-1', fields: ['host'] } }), [1, 5, 9]);
    assert.deepEqual(await found({ query_string: { query: 'database disk', default_operator: 'AND' } }), [8]);
    assert.deepEqual(await found({ query_string: { query: 'database disk', default_operator: 'OR' } }), [2, 8]);
    assert.deepEqual(await found({ query_string: { query: 'data*', analyze_wildcard: true } }), [2, 8]);
    assert.deepEqual(await found({ query_string: { query: '*', analyze_wildcard: true } }), [...Array(12).keys()]);
  });

  it('simple_query_string', async () => {
    assert.deepEqual(await found({ simple_query_string: { query: '"gateway timeout" | refused', fields: ['_line'] } }), [2, 11]);
    assert.deepEqual(await found({ simple_query_string: { query: 'database -disk', default_operator: 'and' } }), [2]);
  });

  it('term and terms on keywords, numbers and booleans', async () => {
    assert.deepEqual(await found({ term: { level: 'warn' } }), [1, 4, 7, 10]);
    assert.deepEqual(await found({ term: { level: { value: 'WARN' } } }), []);
    assert.deepEqual(await found({ term: { level: { value: 'WARN', case_insensitive: true } } }), [1, 4, 7, 10]);
    assert.deepEqual(await found({ term: { status: 404 } }), [1, 7]);
    assert.deepEqual(await found({ term: { ok: true } }), [0, 3, 4, 6, 9, 10]);
    assert.deepEqual(await found({ term: { 'user.name': 'carol' } }), [2, 5, 8, 11]);
    assert.deepEqual(await found({ terms: { status: [500, 503] } }), [2, 5, 8]);
    assert.deepEqual(await found({ terms: { host: ['web-0', 'web-3'] } }), [0, 3, 4, 7, 8, 11]);
  });

  it('range on numbers with gt, gte, lt, lte', async () => {
    assert.deepEqual(await found({ range: { status: { gte: 400, lt: 500 } } }), [1, 7]);
    assert.deepEqual(await found({ range: { status: { gt: 500, lte: 504 } } }), [5, 11]);
    assert.deepEqual(await found({ range: { latency: { gte: 15 } } }), [10, 11]);
  });

  it('range on _ts with date math, epoch_millis and ISO strings', async () => {
    assert.deepEqual(await found({ range: { _ts: { gte: 'now-15m/m' } } }), [0, 1]);
    assert.deepEqual(await found({ range: { _ts: { gte: 'now-25m', lte: 'now' } } }), [0, 1, 2]);
    assert.deepEqual(await found({ range: { _ts: { gte: NOW - 25 * MINUTE, format: 'epoch_millis' } } }), [0, 1, 2]);
    assert.deepEqual(await found({ range: { _ts: { gte: String(NOW - 25 * MINUTE), lt: String(NOW), format: 'epoch_millis' } } }), [1, 2]);
    assert.deepEqual(await found({ range: { _ts: { gt: new Date(NOW - 25 * MINUTE).toISOString() } } }), [0, 1, 2]);
    assert.deepEqual(
      await found({ range: { _ts: { gte: new Date(NOW - 45 * MINUTE).toISOString(), lt: new Date(NOW - 15 * MINUTE).toISOString() } } }),
      [2, 3, 4],
    );
  });

  it('exists, wildcard, prefix and regexp', async () => {
    assert.deepEqual(await found({ exists: { field: 'tags' } }), [0, 4, 8]);
    assert.deepEqual(await found({ exists: { field: 'user.name' } }), [...Array(12).keys()]);
    assert.deepEqual(await found({ exists: { field: 'nope' } }), []);
    assert.deepEqual(await found({ wildcard: { host: 'w?b-3' } }), [3, 7, 11]);
    assert.deepEqual(await found({ wildcard: { host: { value: 'web-*' } } }), [...Array(12).keys()]);
    assert.deepEqual(await found({ prefix: { host: 'web-2' } }), [2, 6, 10]);
    assert.deepEqual(await found({ prefix: { _line: { value: 'databa' } } }), [2, 8]);
    assert.deepEqual(await found({ regexp: { host: 'web-[01]' } }), [0, 1, 4, 5, 8, 9]);
  });

  it('ids', async () => {
    const all = await search({ size: 100 });
    const idOf = (i: number) => all.body.hits.hits.find((h) => h._source.i === i)!._id;
    assert.deepEqual(await found({ ids: { values: [idOf(3), idOf(5)] } }), [3, 5]);
    assert.deepEqual(await found({ ids: { values: ['123'] } }), []);
  });

  it('constant_score gives its boost as the score', async () => {
    const res = await search({ query: { constant_score: { filter: { term: { level: 'error' } }, boost: 2 } }, sort: ['_score'] });
    assert.deepEqual(res.body.hits.hits.map((h) => h._source.i).sort((a, b) => a - b), [2, 5, 8, 11]);
    assert.ok(res.body.hits.hits.every((h) => h._score === 2));
    assert.equal(res.body.hits.max_score, 2);
  });

  it('bool with must, should, must_not, filter and minimum_should_match', async () => {
    assert.deepEqual(
      await found({
        bool: {
          must: [{ match: { _line: 'error' } }],
          filter: { range: { status: { gte: 500 } } },
          must_not: [{ term: { host: 'web-3' } }],
        },
      }),
      [2, 5, 8],
    );
    assert.deepEqual(
      await found({ bool: { should: [{ term: { level: 'error' } }, { term: { host: 'web-1' } }], minimum_should_match: 2 } }),
      [5],
    );
    assert.deepEqual(
      await found({ bool: { should: [{ term: { level: 'error' } }, { term: { host: 'web-1' } }], minimum_should_match: 1 } }),
      [1, 2, 5, 8, 9, 11],
    );
    // should clauses beside a filter are optional, as in Elasticsearch
    assert.deepEqual(await found({ bool: { filter: [{ term: { level: 'warn' } }], should: [{ term: { host: 'web-1' } }] } }), [1, 4, 7, 10]);
    assert.deepEqual(await found({ bool: { must_not: { exists: { field: 'tags' } } } }), [1, 2, 3, 5, 6, 7, 9, 10, 11]);
  });

  it('finds the same hits, in the same order, for q= and the equivalent DSL', async () => {
    const pairs: Array<[string, unknown]> = [
      ['level:error AND status:>=503', { bool: { must: [{ match: { level: 'error' } }, { range: { status: { gte: '503' } } }] } }],
      ['"connection refused"', { match_phrase: { _line: 'connection refused' } }],
      ['host:web-2*', { prefix: { host: 'web-2' } }],
      ['_exists_:tags', { exists: { field: 'tags' } }],
      ['status:[400 TO 500}', { range: { status: { gte: 400, lt: 500 } } }],
      ['error -database', { bool: { should: [{ match: { _line: 'error' } }], must_not: [{ match: { _line: 'database' } }] } }],
      ['user.name:(alice OR bob)', { terms: { 'user.name': ['alice', 'bob'] } }],
      ['_ts:[now-25m TO now]', { range: { _ts: { gte: 'now-25m', lte: 'now' } } }],
      ['host:/web-[01]/', { regexp: { host: 'web-[01]' } }],
      ['database disk', { query_string: { query: 'database disk' } }],
    ];
    for (const [q, dsl] of pairs) {
      const byQ = await request<SearchBody>(`${node.url}/dsl/_search?size=100&q=${encodeURIComponent(q)}`);
      const byDsl = await search({ query: dsl, size: 100 });
      assert.equal(byQ.status, 200, q);
      assert.ok(byQ.body.hits.hits.length > 0, `${q} finds something`);
      assert.deepEqual(
        byDsl.body.hits.hits.map((h) => h._id),
        byQ.body.hits.hits.map((h) => h._id),
        q,
      );
    }
  });

  it('lets q= win over a body query', async () => {
    const res = await request<SearchBody>(`${node.url}/dsl/_search?q=level:warn&size=100`, { body: { query: { match_all: {} } } });
    assert.deepEqual(res.body.hits.hits.map((h) => h._source.i).sort((a, b) => a - b), [1, 4, 7, 10]);
  });

  it('answers an unknown query type with a 400 parsing_exception naming it', async () => {
    const err = await fails({ query: { fuzzy_logic: { _line: 'x' } } });
    assert.equal(err.error.type, 'parsing_exception');
    assert.match(err.error.reason, /fuzzy_logic/);
  });

  it('answers malformed bodies with 400 naming what is wrong', async () => {
    const notJson = await request<ErrorBody>(`${node.url}/dsl/_search`, { body: '{"query": {', headers: { 'content-type': 'application/json' } });
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.error.type, 'x_content_parse_exception');

    const twoKinds = await fails({ query: { match_all: {}, match_none: {} } });
    assert.equal(twoKinds.error.type, 'parsing_exception');
    assert.match(twoKinds.error.reason, /match_all/);

    const unknownKey = await fails({ quary: { match_all: {} } });
    assert.equal(unknownKey.error.type, 'parsing_exception');
    assert.match(unknownKey.error.reason, /quary/);

    const notObject = await fails({ query: ['match_all'] });
    assert.equal(notObject.error.type, 'parsing_exception');

    const boolKey = await fails({ query: { bool: { musts: [] } } });
    assert.match(boolKey.error.reason, /musts/);

    const rangeOp = await fails({ query: { range: { status: { gte: 1, from_here: 2 } } } });
    assert.match(rangeOp.error.reason, /from_here/);
  });

  it('answers values that do not fit the field with 400', async () => {
    assert.match((await fails({ query: { term: { status: 'abc' } } })).error.reason, /abc/);
    assert.match((await fails({ query: { range: { _ts: { gte: 'yesterday-ish' } } } })).error.reason, /yesterday-ish/);
    await fails({ query: { regexp: { status: '5.*' } } });
    await fails({ query: { regexp: { host: 'web-[' } } });
  });
});
