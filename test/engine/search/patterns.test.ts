import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BadRequestError } from '../../../src/common/errors.js';
import { compileLuceneRegexp, compileWildcard } from '../../../src/engine/search/patterns.js';
import { executeSearch, MAX_EXPANSIONS, type SearchTarget } from '../../../src/engine/search/index.js';
import type { Query } from '../../../src/query/index.js';
import { kw, request, segment, text, type DocSpec } from './corpus.js';

test('wildcard patterns: anchored, literal prefix, escapes', () => {
  const w = compileWildcard('ab?d*', false);
  assert.equal(w.prefix, 'ab');
  assert.ok(w.regex.test('abcd'));
  assert.ok(w.regex.test('abxdyyy'));
  assert.ok(!w.regex.test('abd'));
  assert.ok(!w.regex.test('xabcd'));
  const e = compileWildcard('a\\*b.c', false);
  assert.equal(e.prefix, 'a*b.c');
  assert.ok(e.regex.test('a*b.c'));
  assert.ok(!e.regex.test('axb.c'));
  assert.ok(!e.regex.test('a*bxc'));
  // one ? is one character, even outside the BMP
  assert.ok(compileWildcard('x?y', false).regex.test('x😀y'));
  const ci = compileWildcard('AB*', true);
  assert.equal(ci.prefix, '');
  assert.ok(ci.regex.test('abc'));
});

test('Lucene regexp: operators, classes, strings, literal prefix', () => {
  const cases: Array<[string, string, string[], string[]]> = [
    ['ab.*', 'ab', ['ab', 'abc'], ['a', 'xab']],
    ['ab+c', 'a', ['abc', 'abbbc'], ['ac']],
    ['abc?', 'ab', ['ab', 'abc'], ['abcc']],
    ['a{2,3}', '', ['aa', 'aaa'], ['a', 'aaaa']],
    ['(ab){2}', '', ['abab'], ['ab']],
    ['foo|bar', '', ['foo', 'bar'], ['foobar']],
    ['[a-c]x', '', ['ax', 'cx'], ['dx']],
    ['[^a-c]x', '', ['dx'], ['ax']],
    ['"a.b"c', 'a.bc', ['a.bc'], ['axbc']],
    ['a\\.b', 'a.b', ['a.b'], ['axb']],
    ['x@', 'x', ['x', 'xyz'], ['y']],
    ['x#', 'x', [], ['x']],
    ['a()b', 'a', ['ab'], ['a']],
    ['$a^', '$a^', ['$a^'], ['a']],
    ['a/b', 'a/b', ['a/b'], ['ab']],
    ['a**', '', ['', 'aaa'], ['b']],
  ];
  for (const [pattern, prefix, yes, no] of cases) {
    const c = compileLuceneRegexp(pattern, false);
    assert.equal(c.prefix, prefix, pattern);
    for (const s of yes) assert.ok(c.regex.test(s), `${pattern} should match ${s}`);
    for (const s of no) assert.ok(!c.regex.test(s), `${pattern} should not match ${s}`);
  }
});

test('Lucene regexp: unsupported or malformed syntax is a 400', () => {
  for (const bad of ['a&b', '~a', '<1-5>', '(a', 'a)', '[ab', '[]', '*a', 'a{2', 'a{3,1}', '"abc', 'a\\']) {
    assert.throws(() => compileLuceneRegexp(bad, false), BadRequestError, bad);
  }
});

test('more than 10,000 expanded terms in a segment is a 400 too_many_clauses', () => {
  const docs: DocSpec[] = [];
  for (let i = 0; i <= MAX_EXPANSIONS; i++) {
    docs.push({ n: String(i), ts: i, fields: [kw('code', `v${i}`), text('_line', `w${i}`)] });
  }
  const targets: SearchTarget[] = [{ index: 'i', segment: segment('many', docs) }];
  const tooMany = (q: Query) =>
    assert.throws(
      () => executeSearch(targets, request(q)),
      (err: unknown) => err instanceof BadRequestError && err.type === 'too_many_clauses',
    );
  tooMany({ kind: 'wildcard', field: 'code', pattern: 'v*' });
  tooMany({ kind: 'prefix', field: '_line', prefix: 'w' });
  tooMany({ kind: 'regexp', field: 'code', pattern: 'v[0-9]+' });
  // fewer terms pass
  assert.equal(executeSearch(targets, request({ kind: 'wildcard', field: 'code', pattern: 'v1*' })).total, 1112);
  // a pattern matching every term is answered from field presence
  assert.equal(executeSearch(targets, request({ kind: 'wildcard', field: 'code', pattern: '*' })).total, MAX_EXPANSIONS + 1);
});
