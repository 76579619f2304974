import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BadRequestError } from '../../../src/common/errors.js';
import type { Query, RangeQuery } from '../../../src/query/index.js';
import { executeSearch } from '../../../src/engine/search/index.js';
import { DOCS, mainCorpus, matching, request } from './corpus.js';

const targets = mainCorpus();
const find = (q: Query): string[] => matching(targets, q);
const ALL = DOCS.map((d) => d.n);

const match = (field: string, text: string, extra: Partial<Query> = {}): Query =>
  ({ kind: 'match', field, text, operator: 'or', ...extra }) as Query;
const term = (field: string, value: string | number | boolean, extra: Partial<Query> = {}): Query =>
  ({ kind: 'term', field, value, ...extra }) as Query;
const phrase = (text: string, slop = 0, field = '_line'): Query => ({ kind: 'phrase', field, text, slop });
const range = (field: string, bounds: Omit<RangeQuery, 'kind' | 'field'>): Query => ({ kind: 'range', field, ...bounds });
const bool = (parts: Partial<Omit<Extract<Query, { kind: 'bool' }>, 'kind'>>): Query => ({
  kind: 'bool',
  must: [],
  should: [],
  mustNot: [],
  filter: [],
  ...parts,
});

function rejects(q: Query, type?: string): void {
  assert.throws(
    () => executeSearch(targets, request(q)),
    (err: unknown) => err instanceof BadRequestError && err.status === 400 && (type === undefined || err.type === type),
  );
}

test('match on a text field analyzes and combines tokens', () => {
  assert.deepEqual(find(match('_line', 'error')), ['d1', 'd2', 'd6']);
  assert.deepEqual(find(match('_line', 'ERROR, Timeout!')), ['d1', 'd2', 'd6']);
  assert.deepEqual(find(match('_line', 'error timeout', { operator: 'and' })), ['d1', 'd2']);
  assert.deepEqual(find(match('_line', 'error purple', { operator: 'and' })), []);
  assert.deepEqual(find(match('_line', '!!! ...')), []);
});

test('match honours minimum_should_match, counting repeated query tokens', () => {
  assert.deepEqual(find(match('_line', 'quick brown dog', { minimumShouldMatch: 2 })), ['d4', 'd5', 'd7', 'd8', 'd9']);
  assert.deepEqual(find(match('_line', 'quick brown dog', { minimumShouldMatch: 3 })), ['d4', 'd9']);
  assert.deepEqual(find(match('_line', 'quick brown dog', { minimumShouldMatch: 4 })), []);
  assert.deepEqual(find(match('_line', 'quick quick red', { minimumShouldMatch: 3 })), ['d9']);
  assert.deepEqual(find(match('_line', 'quick quick red', { minimumShouldMatch: 2 })), ['d4', 'd5', 'd7', 'd8', 'd9']);
});

test('match on keyword, numeric, date, boolean and built-in fields', () => {
  assert.deepEqual(find(match('host', 'web-1')), ['d0', 'd2', 'd9']);
  assert.deepEqual(find(match('host', 'WEB-1')), []);
  assert.deepEqual(find(match('host', 'web')), []);
  assert.deepEqual(find(match('status', '500')), ['d1', 'd6']);
  assert.deepEqual(find(match('took', '1.5')), ['d0']);
  // a date-only value covers its whole day
  assert.deepEqual(find(match('at', '2024-01-02')), ['d1', 'd6']);
  assert.deepEqual(find(match('ok', 'false')), ['d1', 'd2']);
  assert.deepEqual(find(match('nosuchfield', 'error')), []);
  assert.deepEqual(find(match('_id', '13')), ['d2']);
  assert.deepEqual(find(match('_index', 'logs')), ALL);
  assert.deepEqual(find(match('_index', 'other')), []);
});

test('match text that does not fit the field type is a 400 unless lenient', () => {
  rejects(match('status', 'abc'), 'query_shard_exception');
  assert.deepEqual(find(match('status', 'abc', { lenient: true })), []);
  assert.deepEqual(find(match('ok', 'maybe', { lenient: true })), []);
});

test('a field name with * searches every matching field, ignoring values that do not fit', () => {
  assert.deepEqual(find(match('*', 'web-1')), ['d0', 'd2', 'd9']);
  assert.deepEqual(find(match('us*', 'bob')), ['d6']);
  assert.deepEqual(find(term('ho*', 'db-1')), ['d7']);
});

test('phrase needs consecutive tokens; slop allows moves', () => {
  assert.deepEqual(find(phrase('quick brown')), ['d4', 'd7', 'd9']);
  assert.deepEqual(find(phrase('quick fox')), ['d5', 'd8']);
  assert.deepEqual(find(phrase('quick fox', 1)), ['d4', 'd5', 'd8', 'd9']);
  // a swap of two terms costs two moves
  assert.deepEqual(find(phrase('quick fox', 2)), ['d4', 'd5', 'd7', 'd8', 'd9']);
  assert.deepEqual(find(phrase('brown quick')), ['d8']);
  assert.deepEqual(find(phrase('Lazy DOG sleeps')), ['d5']);
  assert.deepEqual(find(phrase('dog')), ['d4', 'd5', 'd9']);
  assert.deepEqual(find(phrase('quick purple')), []);
});

test('a repeated phrase term needs distinct positions', () => {
  assert.deepEqual(find(phrase('error error')), ['d6']);
  assert.deepEqual(find(phrase('error error', 5)), ['d6']);
  assert.deepEqual(find(phrase('error error error error')), []);
});

test('phrase on a keyword field is the whole value', () => {
  assert.deepEqual(find(phrase('web-1', 0, 'host')), ['d0', 'd2', 'd9']);
  assert.deepEqual(find(phrase('web', 0, 'host')), []);
});

test('phrase_prefix expands the last token', () => {
  const pp = (text: string, maxExpansions = 50, field = '_line'): Query => ({ kind: 'phrase_prefix', field, text, maxExpansions });
  assert.deepEqual(find(pp('quick br')), ['d4', 'd7', 'd9']);
  assert.deepEqual(find(pp('lazy d')), ['d4', 'd5']);
  assert.deepEqual(find(pp('ti')), ['d1', 'd2']);
  // terms beginning with d, in order: database, dog
  assert.deepEqual(find(pp('d', 1)), ['d2']);
  assert.deepEqual(find(pp('d', 2)), ['d2', 'd4', 'd5', 'd9']);
  assert.deepEqual(find(pp('the lazy d', 1)), []);
  assert.deepEqual(find(pp('web-1', 50, 'host')), ['d0', 'd2', 'd5', 'd9']);
  assert.deepEqual(find(pp('')), []);
});

test('term is exact and not analyzed', () => {
  assert.deepEqual(find(term('_line', 'error')), ['d1', 'd2', 'd6']);
  assert.deepEqual(find(term('_line', 'Error')), []);
  assert.deepEqual(find(term('_line', 'Error', { caseInsensitive: true })), ['d1', 'd2', 'd6']);
  assert.deepEqual(find(term('host', 'web-1')), ['d0', 'd2', 'd9']);
  assert.deepEqual(find(term('host', 'web-3')), []);
  assert.deepEqual(find(term('host', 'web-3', { caseInsensitive: true })), ['d3']);
  assert.deepEqual(find(term('status', 200)), ['d0', 'd3']);
  assert.deepEqual(find(term('status', '200')), ['d0', 'd3']);
  assert.deepEqual(find(term('took', 0.5)), ['d3']);
  assert.deepEqual(find(term('ok', true)), ['d0']);
  assert.deepEqual(find(term('ok', 'false')), ['d1', 'd2']);
  assert.deepEqual(find(term('at', '2024-01-01T10:00:00Z')), ['d0']);
  assert.deepEqual(find(term('_id', '15')), ['d4']);
  assert.deepEqual(find(term('_ts', '2024-01-02T09:00:00Z')), ['d3']);
  assert.deepEqual(find(term('_lid', 10)), ['d9']);
  rejects(term('status', 'abc'));
  rejects(term('ok', 'maybe'));
  rejects(term('at', 'not a date'));
});

test('terms matches any of the values', () => {
  const terms = (field: string, values: Array<string | number | boolean>): Query => ({ kind: 'terms', field, values });
  assert.deepEqual(find(terms('host', ['web-2', 'db-1'])), ['d1', 'd4', 'd7', 'd8']);
  assert.deepEqual(find(terms('status', [200, '503', 999])), ['d0', 'd2', 'd3']);
  assert.deepEqual(find(terms('ok', [true])), ['d0']);
  assert.deepEqual(find(terms('_id', ['11', '20', '999', 'abc'])), ['d0', 'd9']);
  assert.deepEqual(find(terms('at', ['2024-01-01'])), ['d0']);
  assert.deepEqual(find(terms('host', [])), []);
  rejects(terms('status', [200, 'x']));
});

test('range on numbers with inclusive and exclusive bounds', () => {
  assert.deepEqual(find(range('status', { gte: 200, lt: 500 })), ['d0', 'd3', 'd4', 'd8']);
  assert.deepEqual(find(range('status', { gt: 200, lte: '500' })), ['d1', 'd4', 'd6', 'd8']);
  assert.deepEqual(find(range('took', { gt: 0.5, lt: 7 })), ['d0', 'd7']);
  assert.deepEqual(find(range('took', { gte: -2, lte: 0.5 })), ['d3', 'd9']);
  assert.deepEqual(find(range('status', { gt: 600 })), []);
  assert.deepEqual(find(range('status', { gt: 300, lt: 200 })), []);
  assert.deepEqual(find(range('_lid', { gte: 9 })), ['d8', 'd9']);
  assert.deepEqual(find(range('ok', { gte: true })), ['d0']);
  assert.deepEqual(find(range('nosuchfield', { gte: 1 })), []);
  rejects(range('status', { gte: 'abc' }));
  assert.deepEqual(find(range('status', { gte: 'abc', lenient: true })), []);
});

test('range on dates rounds gt and lte up, gte and lt down', () => {
  assert.deepEqual(find(range('at', { gte: '2024-01-01', lte: '2024-01-02' })), ['d0', 'd1', 'd6']);
  assert.deepEqual(find(range('at', { gt: '2024-01-01' })), ['d1', 'd6']);
  assert.deepEqual(find(range('at', { lt: '2024-01-02' })), ['d0', 'd8']);
  assert.deepEqual(find(range('at', { gte: '2024-01-02T00:00:00', timeZone: '+01:00' })), ['d1', 'd6']);
});

test('range on _ts with date math, now, epoch numbers and formats', () => {
  const nowMs = Date.parse('2024-01-03T03:00:00Z');
  const at = (q: Query): string[] => {
    const r = executeSearch(targets, request(q, { nowMs, sort: [{ field: '_doc', order: 'asc' }] }));
    return r.hits.map((h) => (JSON.parse(h.source) as { n: string }).n);
  };
  assert.deepEqual(at(range('_ts', { gte: '2024-01-03T02:00:00Z||-1h' })), ['d8', 'd9']);
  assert.deepEqual(at(range('_ts', { gte: '2024-01-02T15:00:00Z||/d', lt: '2024-01-03||/d' })), ['d2', 'd3', 'd4', 'd5', 'd6']);
  assert.deepEqual(at(range('_ts', { gte: 'now-2h' })), ['d8', 'd9']);
  assert.deepEqual(at(range('_ts', { gt: 'now-1d/d', lte: 'now-1d/d' })), []);
  assert.deepEqual(at(range('_ts', { gte: 'now-1d/d', lte: 'now-1d/d' })), ['d2', 'd3', 'd4', 'd5', 'd6']);
  assert.deepEqual(at(range('_ts', { gte: DOCS[7]!.ts })), ['d7', 'd8', 'd9']);
  assert.deepEqual(at(range('_ts', { gt: DOCS[7]!.ts })), ['d8', 'd9']);
  assert.deepEqual(at(range('_ts', { gte: DOCS[8]!.ts / 1000, format: 'epoch_second' })), ['d8', 'd9']);
  assert.deepEqual(at(range('_ts', { gte: 0 })), ALL);
});

test('range on keyword and text fields compares terms', () => {
  assert.deepEqual(find(range('host', { gte: 'web-1', lt: 'web-2' })), ['d0', 'd2', 'd5', 'd9']);
  assert.deepEqual(find(range('host', { gt: 'web-1', lte: 'web-2' })), ['d1', 'd4', 'd5', 'd8']);
  assert.deepEqual(find(range('host', { lt: 'db-2' })), ['d3', 'd7']);
  assert.deepEqual(find(range('_line', { gte: 't', lt: 'u' })), ['d1', 'd2', 'd4', 'd5']);
});

test('exists', () => {
  const exists = (field: string): Query => ({ kind: 'exists', field });
  assert.deepEqual(find(exists('user')), ['d3', 'd6', 'd7']);
  assert.deepEqual(find(exists('_line')), ALL);
  assert.deepEqual(find(exists('_ts')), ALL);
  assert.deepEqual(find(exists('_id')), ALL);
  assert.deepEqual(find(exists('nosuchfield')), []);
  assert.deepEqual(find(exists('us*')), ['d3', 'd6', 'd7']);
});

test('exists on a field that is not a string field is a 400 (since 1.23.0)', () => {
  const exists = (field: string): Query => ({ kind: 'exists', field });
  for (const field of ['status', 'took', 'ok', 'at']) rejects(exists(field), 'query_shard_exception');
  rejects(bool({ mustNot: [exists('status')] }), 'query_shard_exception');
  // a pattern skips the fields it cannot apply to
  assert.deepEqual(find(exists('t*')), find(exists('tag')));
  assert.ok(find(exists('tag')).length > 0);
});

test('prefix on text (lowercased) and keyword fields', () => {
  const prefix = (field: string, p: string, ci = false): Query => ({ kind: 'prefix', field, prefix: p, caseInsensitive: ci });
  assert.deepEqual(find(prefix('_line', 'tim')), ['d1', 'd2']);
  assert.deepEqual(find(prefix('_line', 'Tim')), ['d1', 'd2']);
  assert.deepEqual(find(prefix('host', 'web-1')), ['d0', 'd2', 'd5', 'd9']);
  assert.deepEqual(find(prefix('host', 'Web')), ['d3']);
  assert.deepEqual(find(prefix('host', 'web', true)), ['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd8', 'd9']);
  assert.deepEqual(find(prefix('status', '2')), []);
  assert.deepEqual(find(prefix('_index', 'lo')), ALL);
});

test('wildcard with *, ? and escapes', () => {
  const wc = (field: string, pattern: string, ci = false): Query => ({ kind: 'wildcard', field, pattern, caseInsensitive: ci });
  assert.deepEqual(find(wc('_line', 't*t')), ['d1', 'd2']);
  assert.deepEqual(find(wc('_line', '?o?')), ['d4', 'd5', 'd7', 'd8', 'd9']);
  assert.deepEqual(find(wc('_line', 'TIME*')), ['d1', 'd2']);
  assert.deepEqual(find(wc('host', 'web-?')), ['d0', 'd1', 'd2', 'd4', 'd8', 'd9']);
  assert.deepEqual(find(wc('host', 'web-1*')), ['d0', 'd2', 'd5', 'd9']);
  assert.deepEqual(find(wc('host', '*')), ['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd7', 'd8', 'd9']);
  assert.deepEqual(find(wc('host', '*-1')), ['d0', 'd2', 'd7', 'd9']);
  assert.deepEqual(find(wc('host', 'WEB-1', true)), ['d0', 'd2', 'd9']);
  assert.deepEqual(find(wc('tag', 'a\\*b')), ['d0']);
  assert.deepEqual(find(wc('tag', 'a*b')), ['d0', 'd1']);
  assert.deepEqual(find(wc('status', '2*')), []);
});

test('regexp in Lucene syntax', () => {
  const re = (field: string, pattern: string, ci = false): Query => ({ kind: 'regexp', field, pattern, caseInsensitive: ci });
  assert.deepEqual(find(re('_line', 'tim.*')), ['d1', 'd2']);
  assert.deepEqual(find(re('_line', 'TIM.*')), ['d1', 'd2']);
  assert.deepEqual(find(re('_line', '[a-c].*')), ['d2', 'd3', 'd4', 'd7', 'd8', 'd9']);
  assert.deepEqual(find(re('_line', 'e(rr)+or')), ['d1', 'd2', 'd6']);
  assert.deepEqual(find(re('_line', 'do{2}g')), []);
  assert.deepEqual(find(re('host', 'web-[0-9]+')), ['d0', 'd1', 'd2', 'd4', 'd5', 'd8', 'd9']);
  assert.deepEqual(find(re('host', 'web-1|db-1')), ['d0', 'd2', 'd7', 'd9']);
  assert.deepEqual(find(re('host', '"web"-1')), ['d0', 'd2', 'd9']);
  assert.deepEqual(find(re('host', 'w@')), ['d0', 'd1', 'd2', 'd4', 'd5', 'd8', 'd9']);
  assert.deepEqual(find(re('host', 'web.1')), ['d0', 'd2', 'd9']);
  assert.deepEqual(find(re('host', '^web-1')), []);
  assert.deepEqual(find(re('host', 'web-[^1]')), ['d1', 'd4', 'd8']);
  assert.deepEqual(find(re('host', 'WEB-3', true)), ['d3']);
  assert.deepEqual(find(re('tag', 'a\\*b')), ['d0']);
  rejects(re('host', 'a&b'));
  rejects(re('host', '~a'));
  rejects(re('host', 'web-<1-10>'));
  rejects(re('host', '(abc'));
  rejects(re('host', '[abc'));
  rejects(re('status', '2.*'));
});

test('ids', () => {
  assert.deepEqual(find({ kind: 'ids', values: ['11', '13', '999', 'x'] }), ['d0', 'd2']);
  assert.deepEqual(find({ kind: 'ids', values: [] }), []);
});

test('bool combines must, filter, should and must_not', () => {
  const error = match('_line', 'error');
  assert.deepEqual(find(bool({ must: [error], mustNot: [match('_line', 'timeout')] })), ['d6']);
  assert.deepEqual(find(bool({ filter: [term('host', 'web-2')], should: [match('_line', 'quick')] })), ['d1', 'd4', 'd8']);
  assert.deepEqual(find(bool({ should: [error, match('_line', 'fox')] })), ['d1', 'd2', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9']);
  assert.deepEqual(find(bool({ mustNot: [{ kind: 'exists', field: 'user' }] })), ['d0', 'd1', 'd2', 'd4', 'd5', 'd8', 'd9']);
  assert.deepEqual(find(bool({})), ALL);
  assert.deepEqual(find(bool({ must: [{ kind: 'match_all' }], filter: [range('status', { gte: 500 })] })), ['d1', 'd2', 'd6']);
  assert.deepEqual(
    find(
      bool({
        must: [bool({ should: [term('host', 'web-1'), term('host', 'db-1')] })],
        mustNot: [term('_line', '200')],
      }),
    ),
    ['d2', 'd7', 'd9'],
  );
  assert.deepEqual(find(bool({ must: [error], mustNot: [{ kind: 'match_all' }] })), []);
  assert.deepEqual(find(bool({ must: [error, { kind: 'match_none' }] })), []);
});

test('bool minimum_should_match', () => {
  const words = ['error', 'timeout', 'database'].map((w) => match('_line', w));
  assert.deepEqual(find(bool({ should: words, minimumShouldMatch: 2 })), ['d1', 'd2']);
  assert.deepEqual(find(bool({ should: words, minimumShouldMatch: 3 })), ['d2']);
  assert.deepEqual(find(bool({ should: words, minimumShouldMatch: 4 })), []);
  // with nothing required, one should clause must match even when asked for none
  assert.deepEqual(find(bool({ should: words, minimumShouldMatch: 0 })), ['d1', 'd2', 'd6']);
  // with a filter, should clauses are optional by default and required when asked
  assert.deepEqual(find(bool({ filter: [term('host', 'web-1')], should: words })), ['d0', 'd2', 'd9']);
  assert.deepEqual(find(bool({ filter: [term('host', 'web-1')], should: words, minimumShouldMatch: 1 })), ['d2']);
});

test('constant_score, match_all, match_none', () => {
  assert.deepEqual(find({ kind: 'constant_score', filter: term('host', 'web-2') }), ['d1', 'd4', 'd8']);
  assert.deepEqual(find({ kind: 'match_all' }), ALL);
  assert.deepEqual(find({ kind: 'match_none' }), []);
});

test('a .keyword sub-field name falls back to its keyword parent', () => {
  assert.deepEqual(find(term('host.keyword', 'web-1')), ['d0', 'd2', 'd9']);
  assert.deepEqual(find({ kind: 'exists', field: 'user.keyword' }), ['d3', 'd6', 'd7']);
  // only keyword parents: a text or numeric field has no such sub-field
  assert.deepEqual(find(term('_line.keyword', 'error')), []);
  assert.deepEqual(find(term('status.keyword', '200')), []);
});
