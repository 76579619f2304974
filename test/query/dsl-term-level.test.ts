import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BadRequestError } from '../../src/common/errors.js';
import { parseQueryDsl } from '../../src/query/index.js';
import { assertParsingError } from './helpers.js';

const d = parseQueryDsl;

describe('query DSL: term, terms', () => {
  it('term short and long form keep the raw value', () => {
    assert.deepEqual(d({ term: { status: 500 } }), { kind: 'term', field: 'status', value: 500 });
    assert.deepEqual(d({ term: { level: 'WARN' } }), { kind: 'term', field: 'level', value: 'WARN' });
    assert.deepEqual(d({ term: { ok: false } }), { kind: 'term', field: 'ok', value: false });
    assert.deepEqual(d({ term: { level: { value: 'warn', case_insensitive: true, boost: 2, _name: 'lv' } } }), {
      kind: 'term',
      field: 'level',
      value: 'warn',
      caseInsensitive: true,
      boost: 2,
    });
  });

  it('term accepts a boost beside the field', () => {
    assert.deepEqual(d({ term: { status: 500, boost: 2 } }), { kind: 'term', field: 'status', value: 500, boost: 2 });
  });

  it('a term on _id is an ids query', () => {
    assert.deepEqual(d({ term: { _id: 7 } }), { kind: 'ids', values: ['7'] });
  });

  it('term errors: object or array value, unknown key, two fields, no value', () => {
    assertParsingError(() => d({ term: { status: { value: { a: 1 } } } }), 'x_content_parse_exception', /^\[term\] failed to parse field \[value\]/);
    assertParsingError(() => d({ term: { status: [1, 2] } }), 'x_content_parse_exception', /\[term\] failed to parse field \[status\]/);
    assertParsingError(() => d({ term: { status: { val: 1 } } }), 'parsing_exception', '[term] query does not support [val]');
    assertParsingError(() => d({ term: { a: 1, b: 2 } }), 'parsing_exception', "[term] query doesn't support multiple fields, found [a] and [b]");
    assertParsingError(() => d({ term: { a: { boost: 1 } } }), 'parsing_exception', /requires a \[value\]/);
    assertParsingError(() => d({ term: { a: null } }), 'x_content_parse_exception', /found \[VALUE_NULL\]/);
  });

  it('terms with a boost; on _id an ids query', () => {
    assert.deepEqual(d({ terms: { level: ['warn', 'error', 3], boost: 1.5 } }), {
      kind: 'terms',
      field: 'level',
      values: ['warn', 'error', 3],
      boost: 1.5,
    });
    assert.deepEqual(d({ terms: { _id: ['1', 2] } }), { kind: 'ids', values: ['1', '2'] });
    assert.deepEqual(d({ terms: { f: [] } }), { kind: 'terms', field: 'f', values: [] });
  });

  it('terms errors', () => {
    assertParsingError(() => d({ terms: { level: 'warn' } }), 'x_content_parse_exception', /\[terms\] failed to parse field \[level\]/);
    assertParsingError(() => d({ terms: { a: [1], b: [2] } }), 'parsing_exception', /multiple fields/);
    assertParsingError(() => d({ terms: { a: [{}] } }), 'x_content_parse_exception', /START_OBJECT/);
    assert.throws(() => d({ terms: { a: { index: 'i', id: '1', path: 'p' } } }), (e: unknown) => e instanceof BadRequestError && /terms lookup/.test(e.reason));
  });
});

describe('query DSL: range', () => {
  it('gt, gte, lt, lte with raw values, format and time_zone', () => {
    assert.deepEqual(d({ range: { status: { gte: 500, lt: 600 } } }), { kind: 'range', field: 'status', gte: 500, lt: 600 });
    assert.deepEqual(d({ range: { _ts: { gt: 'now-15m', lte: 'now', format: 'strict_date_optional_time', time_zone: '+01:00', boost: 2 } } }), {
      kind: 'range',
      field: '_ts',
      gt: 'now-15m',
      lte: 'now',
      format: 'strict_date_optional_time',
      timeZone: '+01:00',
      boost: 2,
    });
  });

  it('legacy from/to with include_lower/include_upper (inclusive by default)', () => {
    assert.deepEqual(d({ range: { n: { from: 1, to: 5 } } }), { kind: 'range', field: 'n', gte: 1, lte: 5 });
    assert.deepEqual(d({ range: { n: { from: 1, to: 5, include_lower: false, include_upper: false } } }), { kind: 'range', field: 'n', gt: 1, lt: 5 });
    assert.deepEqual(d({ range: { n: { from: null, to: 5 } } }), { kind: 'range', field: 'n', lte: 5 });
  });

  it('keys apply in order, as in Elasticsearch', () => {
    assert.deepEqual(d({ range: { n: { gte: 1, gt: 2 } } }), { kind: 'range', field: 'n', gt: 2 });
  });

  it('no bound at all means the field exists', () => {
    assert.deepEqual(d({ range: { n: {} } }), { kind: 'exists', field: 'n' });
    assert.deepEqual(d({ range: { n: { gte: null, lte: null } } }), { kind: 'exists', field: 'n' });
  });

  it('range errors', () => {
    assertParsingError(() => d({ range: { n: { gte: [1] } } }), 'x_content_parse_exception', /\[range\] failed to parse field \[gte\]/);
    assertParsingError(() => d({ range: { n: { gte: 1, foo: 2 } } }), 'parsing_exception', '[range] query does not support [foo]');
    assertParsingError(() => d({ range: { n: 5 } }), 'parsing_exception', '[range] query does not support [n]');
    assertParsingError(() => d({ range: { a: {}, b: {} } }), 'parsing_exception', /multiple fields/);
    assertParsingError(() => d({ range: { n: { gte: 1, time_zone: 'Nowhere/Land' } } }), 'x_content_parse_exception', /unknown time zone/);
    assertParsingError(() => d({ range: { n: { gte: 1, include_lower: 'maybe' } } }), 'x_content_parse_exception', /not a boolean/);
  });
});

describe('query DSL: exists, prefix, wildcard, regexp, ids', () => {
  it('exists', () => {
    assert.deepEqual(d({ exists: { field: 'host.name' } }), { kind: 'exists', field: 'host.name' });
    assert.deepEqual(d({ exists: { field: 'a', boost: 2 } }), { kind: 'exists', field: 'a', boost: 2 });
    assertParsingError(() => d({ exists: {} }), 'parsing_exception', '[exists] must be provided with a [field]');
    assertParsingError(() => d({ exists: { field: 1 } }), 'x_content_parse_exception', /\[exists\] failed to parse field \[field\]/);
    assertParsingError(() => d({ exists: { fields: 'a' } }), 'parsing_exception', '[exists] query does not support [fields]');
  });

  it('prefix', () => {
    assert.deepEqual(d({ prefix: { host: 'web' } }), { kind: 'prefix', field: 'host', prefix: 'web' });
    assert.deepEqual(d({ prefix: { host: { value: 'Web', case_insensitive: true, rewrite: 'constant_score' } } }), {
      kind: 'prefix',
      field: 'host',
      prefix: 'Web',
      caseInsensitive: true,
    });
  });

  it('wildcard under value or wildcard', () => {
    assert.deepEqual(d({ wildcard: { host: 'web-*' } }), { kind: 'wildcard', field: 'host', pattern: 'web-*' });
    assert.deepEqual(d({ wildcard: { host: { wildcard: 'w?b*', boost: 2 } } }), { kind: 'wildcard', field: 'host', pattern: 'w?b*', boost: 2 });
    assert.deepEqual(d({ wildcard: { host: { value: 'w*', case_insensitive: true } } }), { kind: 'wildcard', field: 'host', pattern: 'w*', caseInsensitive: true });
    assertParsingError(() => d({ wildcard: { host: { pattern: 'x' } } }), 'parsing_exception', '[wildcard] query does not support [pattern]');
    assertParsingError(() => d({ wildcard: { host: 3 } }), 'x_content_parse_exception', /\[wildcard\] failed to parse field \[host\]/);
  });

  it('regexp with flags accepted', () => {
    assert.deepEqual(d({ regexp: { path: { value: '/var/.*', flags: 'ALL', max_determinized_states: 10000 } } }), { kind: 'regexp', field: 'path', pattern: '/var/.*' });
    assert.deepEqual(d({ regexp: { path: 'a.c' } }), { kind: 'regexp', field: 'path', pattern: 'a.c' });
    assertParsingError(() => d({ regexp: { path: {} } }), 'parsing_exception', /requires a \[value\]/);
  });

  it('ids', () => {
    assert.deepEqual(d({ ids: { values: ['a', 1] } }), { kind: 'ids', values: ['a', '1'] });
    assertParsingError(() => d({ ids: { values: 'a' } }), 'x_content_parse_exception', /\[ids\] failed to parse field \[values\]/);
    assertParsingError(() => d({ ids: { ids: ['a'] } }), 'x_content_parse_exception', '[ids] unknown field [ids]');
  });
});
