import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseQueryDsl, parseQueryString } from '../../src/query/index.js';

// The same search written as `q=` and as a Query DSL body must reach the engine as the same AST.
const pairs: [string, unknown][] = [
  [
    'status:>=500 AND _line:error',
    { bool: { must: [{ range: { status: { gte: '500' } } }, { match: { _line: 'error' } }] } },
  ],
  ['error', { match: { _line: 'error' } }],
  ['"disk full"~2', { match_phrase: { _line: { query: 'disk full', slop: 2 } } }],
  ['host:web*', { prefix: { host: 'web' } }],
  ['host:w?b', { wildcard: { host: 'w?b' } }],
  ['path:/a.*c/', { regexp: { path: 'a.*c' } }],
  ['_exists_:user', { exists: { field: 'user' } }],
  ['user:*', { exists: { field: 'user' } }],
  ['*', { match_all: {} }],
  ['_ts:[now-1h TO now}', { range: { _ts: { gte: 'now-1h', lt: 'now' } } }],
  ['n:{1 TO *]', { range: { n: { gt: '1' } } }],
  ['a OR b', { bool: { should: [{ match: { _line: 'a' } }, { match: { _line: 'b' } }] } }],
  [
    'a -b',
    { bool: { should: { match: { _line: 'a' } }, must_not: { match: { _line: 'b' } } } },
  ],
  ['NOT level:debug', { bool: { must_not: { match: { level: 'debug' } } } }],
  ['level:(warn OR error)^2', { bool: { should: [{ match: { level: 'warn' } }, { match: { level: 'error' } }], boost: 2 } }],
  ['a^3', { match: { _line: { query: 'a', boost: 3 } } }],
  ['_id:abc', { ids: { values: ['abc'] } }],
];

describe('q= and Query DSL produce the same AST', () => {
  for (const [q, body] of pairs) {
    it(q, () => {
      assert.deepEqual(parseQueryString(q), parseQueryDsl(body));
    });
  }

  it('query_string in the DSL is exactly q=', () => {
    const q = 'status:[500 TO 599] AND (error OR "disk full") -user:bot';
    assert.deepEqual(parseQueryDsl({ query_string: { query: q } }), parseQueryString(q));
  });
});
