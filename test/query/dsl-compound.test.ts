import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BadRequestError } from '../../src/common/errors.js';
import { parseQueryDsl } from '../../src/query/index.js';
import { assertParsingError, bool, m } from './helpers.js';

const d = parseQueryDsl;
const t = (field: string, value: string | number) => ({ kind: 'term' as const, field, value });

describe('query DSL: envelope errors', () => {
  it('an unknown query kind', () => {
    assertParsingError(() => d({ fuzzy: { a: 'b' } }), 'parsing_exception', 'unknown query [fuzzy]');
    assertParsingError(() => d({ bool: { must: { nope: {} } } }), 'parsing_exception', 'unknown query [nope]');
  });

  it('more than one key in a query object', () => {
    assertParsingError(
      () => d({ match_all: {}, term: { a: 1 } }),
      'parsing_exception',
      '[match_all] malformed query, expected [END_OBJECT] but found [FIELD_NAME]',
    );
  });

  it('an empty query object', () => {
    assert.throws(
      () => d({}),
      (e: unknown) => e instanceof BadRequestError && e.type === 'illegal_argument_exception' && /empty clause/.test(e.reason),
    );
  });

  it('a query that is not an object, or whose body is not', () => {
    assertParsingError(() => d('match_all'), 'parsing_exception', '[_na] query malformed, must start with start_object');
    assertParsingError(() => d([{ match_all: {} }]), 'parsing_exception', /must start with start_object/);
    assertParsingError(() => d({ match_all: [] }), 'parsing_exception', '[match_all] query malformed, no start_object after query name');
  });
});

describe('query DSL: match_all, match_none', () => {
  it('match_all with and without boost', () => {
    assert.deepEqual(d({ match_all: {} }), { kind: 'match_all' });
    assert.deepEqual(d({ match_all: { boost: 1.5, _name: 'all' } }), { kind: 'match_all', boost: 1.5 });
  });

  it('an unknown key in match_all fails as Elasticsearch object parsing does', () => {
    assertParsingError(() => d({ match_all: { size: 10 } }), 'x_content_parse_exception', '[match_all] unknown field [size]');
  });

  it('a boost of the wrong type', () => {
    assertParsingError(() => d({ match_all: { boost: 'high' } }), 'x_content_parse_exception', /\[match_all\] failed to parse field \[boost\]/);
    assertParsingError(() => d({ match_all: { boost: {} } }), 'x_content_parse_exception', /found \[START_OBJECT\]/);
  });

  it('match_none', () => {
    assert.deepEqual(d({ match_none: {} }), { kind: 'match_none' });
    assertParsingError(() => d({ match_none: { x: 1 } }), 'parsing_exception', '[match_none] query does not support [x]');
  });
});

describe('query DSL: bool', () => {
  it('clauses as an object or an array', () => {
    assert.deepEqual(
      d({
        bool: {
          must: { match: { _line: 'error' } },
          filter: [{ term: { level: 'warn' } }, { exists: { field: 'host' } }],
          must_not: [{ term: { user: 'bot' } }],
          should: [],
        },
      }),
      bool({
        must: [m('error')],
        filter: [t('level', 'warn'), { kind: 'exists', field: 'host' }],
        mustNot: [t('user', 'bot')],
      }),
    );
  });

  it('an empty bool matches everything, keeping its boost', () => {
    assert.deepEqual(d({ bool: {} }), { kind: 'match_all' });
    assert.deepEqual(d({ bool: { boost: 2 } }), { kind: 'match_all', boost: 2 });
  });

  it('a purely negative bool stays a bool (everything minus the excluded), unless adjust_pure_negative is false', () => {
    assert.deepEqual(d({ bool: { must_not: { term: { a: 1 } } } }), bool({ mustNot: [t('a', 1)] }));
    assert.deepEqual(d({ bool: { must_not: { term: { a: 1 } }, adjust_pure_negative: false } }), { kind: 'match_none' });
  });

  it('minimum_should_match as an integer, a negative integer, a percentage', () => {
    const should = [{ term: { a: 1 } }, { term: { a: 2 } }, { term: { a: 3 } }, { term: { a: 4 } }];
    const msm = (spec: unknown) => {
      const q = d({ bool: { should, minimum_should_match: spec } });
      assert.equal(q.kind, 'bool');
      return q.kind === 'bool' ? q.minimumShouldMatch : undefined;
    };
    assert.equal(msm(2), 2);
    assert.equal(msm('3'), 3);
    assert.equal(msm(-1), 3);
    assert.equal(msm('75%'), 3);
    assert.equal(msm('70%'), 2);
    assert.equal(msm('-25%'), 3);
    assert.equal(msm('3<-1'), 3);
    assert.equal(msm('100%'), 4);
    // 0 or less leaves the default (one should clause when nothing is required)
    assert.equal(msm(0), undefined);
    assert.equal(msm(-10), undefined);
  });

  it('minimum_should_match with no should clause can exceed them (matches nothing, as in Elasticsearch)', () => {
    const q = d({ bool: { must: { term: { a: 1 } }, minimum_should_match: 1 } });
    assert.deepEqual(q, bool({ must: [t('a', 1)] }, { minimumShouldMatch: 1 }));
  });

  it('a wrong clause type names the query and the key', () => {
    assertParsingError(() => d({ bool: { must: 'x' } }), 'x_content_parse_exception', /^\[bool\] failed to parse field \[must\]/);
    assertParsingError(() => d({ bool: { filter: ['x'] } }), 'x_content_parse_exception', /\[bool\] failed to parse field \[filter\]/);
    assertParsingError(() => d({ bool: { minimum_should_match: [] } }), 'x_content_parse_exception', /\[minimum_should_match\]/);
    assertParsingError(() => d({ bool: { should: { term: { a: 1 } }, minimum_should_match: 'most' } }), 'x_content_parse_exception', /invalid value \[most\]/);
  });

  it('an unknown key in bool', () => {
    assertParsingError(() => d({ bool: { size: 10 } }), 'parsing_exception', '[bool] query does not support [size]');
  });

  it('nested bools', () => {
    assert.deepEqual(
      d({ bool: { should: [{ bool: { must: [{ match: { a: 'x' } }] } }, { match_all: {} }], boost: 3 } }),
      bool({ should: [bool({ must: [m('x', 'a')] }), { kind: 'match_all' }] }, { boost: 3 }),
    );
  });
});

describe('query DSL: constant_score, dis_max', () => {
  it('constant_score wraps its filter', () => {
    assert.deepEqual(d({ constant_score: { filter: { term: { a: 1 } }, boost: 1.2 } }), {
      kind: 'constant_score',
      filter: t('a', 1),
      boost: 1.2,
    });
  });

  it('constant_score needs a filter object', () => {
    assertParsingError(() => d({ constant_score: { boost: 1 } }), 'parsing_exception', "[constant_score] requires a 'filter' element");
    assertParsingError(() => d({ constant_score: { filter: [] } }), 'x_content_parse_exception', /\[constant_score\] failed to parse field \[filter\]/);
    assertParsingError(() => d({ constant_score: { query: {} } }), 'parsing_exception', '[constant_score] query does not support [query]');
  });

  it('dis_max is any of its queries', () => {
    assert.deepEqual(d({ dis_max: { queries: [{ term: { a: 1 } }, { term: { a: 2 } }], tie_breaker: 0.7 } }), bool({ should: [t('a', 1), t('a', 2)] }));
    assertParsingError(() => d({ dis_max: { queries: [] } }), 'parsing_exception', /at least one clause/);
  });
});

describe('query DSL: limits', () => {
  it('a body nested too deeply is refused', () => {
    let body: unknown = { match_all: {} };
    for (let i = 0; i < 99; i++) body = { bool: { must: body } };
    assert.equal(d(body).kind, 'bool');
    body = { bool: { must: body } };
    assert.throws(() => d(body), (e: unknown) => e instanceof BadRequestError && /nested too deeply/.test(e.reason));
  });
});
