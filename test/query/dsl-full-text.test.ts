import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BadRequestError, ParsingError } from '../../src/common/errors.js';
import { parseQueryDsl } from '../../src/query/index.js';
import { assertParsingError, bool, m } from './helpers.js';

const d = parseQueryDsl;

describe('query DSL: match', () => {
  it('short form', () => {
    assert.deepEqual(d({ match: { _line: 'disk full' } }), m('disk full'));
    assert.deepEqual(d({ match: { status: 500 } }), m('500', 'status'));
    assert.deepEqual(d({ match: { ok: true } }), m('true', 'ok'));
  });

  it('long form with operator, boost, lenient', () => {
    assert.deepEqual(d({ match: { msg: { query: 'a b', operator: 'AND', boost: 2 } } }), { ...m('a b', 'msg', 'and'), boost: 2 });
    assert.deepEqual(d({ match: { n: { query: 'x', lenient: true } } }), { ...m('x', 'n'), lenient: true });
  });

  it('minimum_should_match is checked and kept for the engine, which resolves it against the field analyzer', () => {
    assert.deepEqual(d({ match: { _line: { query: 'a b c d', minimum_should_match: '75%' } } }), { ...m('a b c d'), minimumShouldMatch: '75%' });
    assert.deepEqual(d({ match: { _line: { query: 'a-b c', minimum_should_match: -1 } } }), { ...m('a-b c'), minimumShouldMatch: -1 });
    // operator and: nothing to resolve
    assert.deepEqual(d({ match: { _line: { query: 'a b', operator: 'and', minimum_should_match: 1 } } }), m('a b', '_line', 'and'));
    assert.throws(() => d({ match: { _line: { query: 'a b', minimum_should_match: '2<x' } } }), ParsingError);
  });

  it('analysis settings are accepted and ignored; zero_terms_query is kept', () => {
    assert.deepEqual(d({ match: { _line: { query: 'x', analyzer: 'standard', auto_generate_synonyms_phrase_query: false, fuzziness: 0 } } }), m('x'));
    assert.deepEqual(d({ match: { _line: { query: 'x', zero_terms_query: 'all' } } }), { ...m('x'), zeroTermsQuery: 'all' });
    assert.deepEqual(d({ match: { _line: { query: 'x', zero_terms_query: 'none' } } }), m('x'));
    assert.deepEqual(d({ match_phrase: { f: { query: 'x y', zero_terms_query: 'ALL' } } }), { kind: 'phrase', field: 'f', text: 'x y', slop: 0, zeroTermsQuery: 'all' });
  });

  it('match_bool_prefix: a match whose last word is a prefix', () => {
    assert.deepEqual(d({ match_bool_prefix: { message: 'quick brown f' } }), { ...m('quick brown f', 'message'), prefixMaxExpansions: 50 });
    assert.deepEqual(d({ match_bool_prefix: { message: { query: 'a b', operator: 'and', max_expansions: 5, boost: 2 } } }), {
      ...m('a b', 'message', 'and'),
      prefixMaxExpansions: 5,
      boost: 2,
    });
    assert.deepEqual(d({ multi_match: { query: 'a b', fields: ['t'], type: 'bool_prefix' } }), { ...m('a b', 't'), prefixMaxExpansions: 50 });
    assertParsingError(() => d({ match_bool_prefix: { message: { operator: 'and' } } }), 'parsing_exception', /requires a \[query\]/);
  });

  it('fuzziness is refused with a 400', () => {
    assert.throws(
      () => d({ match: { _line: { query: 'x', fuzziness: 'AUTO' } } }),
      (e: unknown) => e instanceof BadRequestError && e.status === 400 && /fuzzy matching/.test(e.reason),
    );
  });

  it('errors: two fields, unknown key, bad operator, no query, object value', () => {
    assertParsingError(() => d({ match: { a: 'x', b: 'y' } }), 'parsing_exception', "[match] query doesn't support multiple fields, found [a] and [b]");
    assertParsingError(() => d({ match: { a: { query: 'x', size: 3 } } }), 'parsing_exception', '[match] query does not support [size]');
    assertParsingError(() => d({ match: { a: { query: 'x', operator: 'xor' } } }), 'x_content_parse_exception', /\[operator\]/);
    assertParsingError(() => d({ match: { a: { operator: 'or' } } }), 'parsing_exception', /\[match\] requires a \[query\]/);
    assertParsingError(() => d({ match: { a: ['x'] } }), 'x_content_parse_exception', /\[match\] failed to parse field \[a\]/);
    assertParsingError(() => d({ match: {} }), 'parsing_exception', /requires a field/);
  });

  it('a match on _id is an ids query', () => {
    assert.deepEqual(d({ match: { _id: '42' } }), { kind: 'ids', values: ['42'] });
  });
});

describe('query DSL: match_phrase, match_phrase_prefix', () => {
  it('match_phrase short and long form', () => {
    assert.deepEqual(d({ match_phrase: { _line: 'disk full' } }), { kind: 'phrase', field: '_line', text: 'disk full', slop: 0 });
    assert.deepEqual(d({ match_phrase: { msg: { query: 'a b', slop: 2, boost: 3 } } }), { kind: 'phrase', field: 'msg', text: 'a b', slop: 2, boost: 3 });
    assertParsingError(() => d({ match_phrase: { msg: { query: 'a', operator: 'and' } } }), 'parsing_exception', '[match_phrase] query does not support [operator]');
    assertParsingError(() => d({ match_phrase: { msg: { query: 'a', slop: 'x' } } }), 'x_content_parse_exception', /\[slop\]/);
  });

  it('match_phrase_prefix with the default and a given max_expansions', () => {
    assert.deepEqual(d({ match_phrase_prefix: { _line: 'disk fu' } }), { kind: 'phrase_prefix', field: '_line', text: 'disk fu', maxExpansions: 50 });
    assert.deepEqual(d({ match_phrase_prefix: { _line: { query: 'disk fu', max_expansions: 10, slop: 1 } } }), {
      kind: 'phrase_prefix',
      field: '_line',
      text: 'disk fu',
      maxExpansions: 10,
    });
  });
});

describe('query DSL: multi_match', () => {
  it('ORs the per-field queries, with field boosts', () => {
    assert.deepEqual(
      d({ multi_match: { query: 'x', fields: ['title^3', 'body'] } }),
      bool({ should: [{ ...m('x', 'title'), boost: 3 }, m('x', 'body')] }),
    );
  });

  it('types phrase and phrase_prefix, operator and msm per field', () => {
    assert.deepEqual(d({ multi_match: { query: 'a b', fields: ['t', 'u'], type: 'phrase', slop: 1 } }), bool({
      should: [
        { kind: 'phrase', field: 't', text: 'a b', slop: 1 },
        { kind: 'phrase', field: 'u', text: 'a b', slop: 1 },
      ],
    }));
    assert.deepEqual(d({ multi_match: { query: 'a b', fields: 't', type: 'phrase_prefix' } }), {
      kind: 'phrase_prefix',
      field: 't',
      text: 'a b',
      maxExpansions: 50,
    });
    assert.deepEqual(d({ multi_match: { query: 'a b c', fields: ['t'], type: 'most_fields', minimum_should_match: '2' } }), {
      ...m('a b c', 't'),
      minimumShouldMatch: '2',
    });
    assert.deepEqual(d({ multi_match: { query: 'a b', fields: ['t'], type: 'cross_fields', operator: 'and' } }), m('a b', 't', 'and'));
  });

  it('no fields, or *, means the default field; the query boost goes on top', () => {
    assert.deepEqual(d({ multi_match: { query: 'x', lenient: true } }), { ...m('x'), lenient: true });
    assert.deepEqual(d({ multi_match: { query: 'x', fields: ['*'], boost: 2 } }), { ...m('x'), boost: 2 });
  });

  it('errors', () => {
    assertParsingError(() => d({ multi_match: { fields: ['a'] } }), 'parsing_exception', /requires a \[query\]/);
    assertParsingError(() => d({ multi_match: { query: 'x', type: 'best' } }), 'x_content_parse_exception', /unknown type/);
    assertParsingError(() => d({ multi_match: { query: 'x', fields: [1] } }), 'x_content_parse_exception', /\[fields\]/);
    assert.throws(() => d({ multi_match: { query: 'x', fields: ['a^high'] } }), BadRequestError);
  });
});

describe('query DSL: query_string', () => {
  it('parses the Lucene syntax with the given options', () => {
    assert.deepEqual(
      d({ query_string: { query: 'a b', default_field: 'msg', default_operator: 'and', analyze_wildcard: true } }),
      bool({ must: [m('a', 'msg', 'and'), m('b', 'msg', 'and')] }),
    );
    assert.deepEqual(d({ query_string: { query: 'x', fields: ['a^2', 'b'] } }), bool({ should: [{ ...m('x', 'a'), boost: 2 }, m('x', 'b')] }));
    assert.deepEqual(d({ query_string: { query: '"a b"', phrase_slop: 2 } }), { kind: 'phrase', field: '_line', text: 'a b', slop: 2 });
    assert.deepEqual(d({ query_string: { query: '_ts:>now-1h', time_zone: 'Europe/Paris' } }), {
      kind: 'range',
      field: '_ts',
      gt: 'now-1h',
      timeZone: 'Europe/Paris',
    });
  });

  it('an empty query matches nothing, as in Elasticsearch', () => {
    assert.deepEqual(d({ query_string: { query: '' } }), { kind: 'match_none' });
  });

  it('minimum_should_match applies to the top-level bool; boost goes on top', () => {
    assert.deepEqual(
      d({ query_string: { query: 'a b c', minimum_should_match: '2', boost: 2 } }),
      bool({ should: [m('a'), m('b'), m('c')] }, { minimumShouldMatch: 2, boost: 2 }),
    );
  });

  it('allow_leading_wildcard false refuses *foo', () => {
    assert.throws(() => d({ query_string: { query: '*foo', allow_leading_wildcard: false } }), ParsingError);
  });

  it('syntax errors are query_shard_exception with the position', () => {
    assert.throws(
      () => d({ query_string: { query: 'a AND' } }),
      (e: unknown) => e instanceof ParsingError && e.type === 'query_shard_exception' && e.details.position === 5,
    );
  });

  it('errors in the body', () => {
    assertParsingError(() => d({ query_string: { default_field: 'a' } }), 'parsing_exception', /must be provided with a \[query\]/);
    assertParsingError(() => d({ query_string: { query: 1 } }), 'x_content_parse_exception', /\[query_string\] failed to parse field \[query\]/);
    assertParsingError(() => d({ query_string: { query: 'a', time_zone: 'Mars/Olympus' } }), 'x_content_parse_exception', /unknown time zone/);
    assertParsingError(() => d({ query_string: { query: 'a', foo: 1 } }), 'parsing_exception', '[query_string] query does not support [foo]');
    assert.throws(() => d({ query_string: { query: 'a', fields: ['x'], default_field: 'y' } }), /cannot use \[fields\] parameter in conjunction with \[default_field\]/);
  });
});

describe('query DSL: simple_query_string', () => {
  it('uses its own syntax over the given fields', () => {
    assert.deepEqual(
      d({ simple_query_string: { query: 'disk +full', fields: ['msg'], flags: 'AND|OR|WHITESPACE', analyze_wildcard: true } }),
      bool({ must: [m('disk', 'msg'), m('full', 'msg')] }),
    );
  });

  it('never fails on bad syntax', () => {
    assert.deepEqual(d({ simple_query_string: { query: '"unclosed (also' } }), bool({ should: [m('unclosed'), m('also')] }));
  });

  it('default_operator, minimum_should_match, boost', () => {
    assert.deepEqual(
      d({ simple_query_string: { query: 'a b c', default_operator: 'OR', minimum_should_match: '2', boost: 3 } }),
      bool({ should: [m('a'), m('b'), m('c')] }, { minimumShouldMatch: 2, boost: 3 }),
    );
  });

  it('flags limit the operators', () => {
    // with only WHITESPACE, + is part of the word
    assert.deepEqual(d({ simple_query_string: { query: 'a+b', flags: 'WHITESPACE' } }), m('a+b'));
    assert.throws(() => d({ simple_query_string: { query: 'a', flags: 'BOGUS' } }), /Unknown simple_query_string flag \[BOGUS\]/);
  });

  it('an empty query matches nothing', () => {
    assert.deepEqual(d({ simple_query_string: { query: '   ' } }), { kind: 'match_none' });
  });
});
