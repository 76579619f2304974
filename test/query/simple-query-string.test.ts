import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseSimpleQueryString } from '../../src/query/index.js';
import { bool, m } from './helpers.js';

const s = parseSimpleQueryString;

describe('simple_query_string syntax', () => {
  it('words joined by the default operator', () => {
    assert.deepEqual(s('a b'), bool({ should: [m('a'), m('b')] }));
    assert.deepEqual(s('a b', { defaultOperator: 'and' }), bool({ must: [m('a', '_line', 'and'), m('b', '_line', 'and')] }));
  });

  it('+ and | combine left to right, a change of operator wrapping what came before', () => {
    assert.deepEqual(s('a +b | c'), bool({ should: [bool({ must: [m('a'), m('b')] }), m('c')] }));
    assert.deepEqual(s('a | b +c'), bool({ must: [bool({ should: [m('a'), m('b')] }), m('c')] }));
  });

  it('- negates the next clause; twice cancels', () => {
    assert.deepEqual(s('a -b'), bool({ should: [m('a'), bool({ mustNot: [m('b')] })] }));
    assert.deepEqual(s('--a'), m('a'));
    // a - followed by a space negates nothing
    assert.deepEqual(s('a - b'), bool({ should: [m('a'), m('b')] }));
  });

  it('phrases with and without slop', () => {
    assert.deepEqual(s('"a b"'), { kind: 'phrase', field: '_line', text: 'a b', slop: 0 });
    assert.deepEqual(s('"a b"~3'), { kind: 'phrase', field: '_line', text: 'a b', slop: 3 });
  });

  it('a trailing * is a prefix', () => {
    assert.deepEqual(s('err*'), { kind: 'prefix', field: '_line', prefix: 'err' });
    assert.deepEqual(s('err\\*'), m('err*'));
  });

  it('parentheses set precedence', () => {
    assert.deepEqual(s('(a | b) +c'), bool({ must: [bool({ should: [m('a'), m('b')] }), m('c')] }));
  });

  it('~N after a word is ignored (fuzzy matching is not implemented)', () => {
    assert.deepEqual(s('quikc~2 x'), bool({ should: [m('quikc'), m('x')] }));
  });

  it('bad syntax never throws', () => {
    for (const q of ['"', '(', ')', '+', '|', '-', '"a', '(a', 'a)', '((', '""', '()', '~', '\\', 'a~', '"a"~']) {
      assert.doesNotThrow(() => s(q), q);
    }
    assert.deepEqual(s('(a'), m('a'));
    assert.deepEqual(s('a)'), m('a'));
    assert.deepEqual(s(''), { kind: 'match_none' });
    assert.deepEqual(s('+'), { kind: 'match_none' });
  });

  it('several fields with boosts', () => {
    assert.deepEqual(s('x', { fields: ['a^2', 'b'] }), bool({ should: [{ ...m('x', 'a'), boost: 2 }, m('x', 'b')] }));
  });
});

describe('simple_query_string limits', () => {
  it('parentheses nested very deep are ignored, not followed', () => {
    assert.deepEqual(s('('.repeat(5000) + 'a' + ')'.repeat(5000)), m('a'));
  });
});
