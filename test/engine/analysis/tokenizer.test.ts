import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_TOKEN_LENGTH, tokenize } from '../../../src/engine/analysis/index.js';

test('splits on everything but letters and digits, lowercasing', () => {
  assert.deepEqual(tokenize('GET /api/v1/users?id=42 HTTP/1.1'), ['get', 'api', 'v1', 'users', 'id', '42', 'http', '1', '1']);
  assert.deepEqual(tokenize('foo_bar-baz.qux:quux'), ['foo', 'bar', 'baz', 'qux', 'quux']);
  assert.deepEqual(tokenize('ERROR: Connection Reset!'), ['error', 'connection', 'reset']);
  assert.deepEqual(tokenize("don't"), ['don', 't']);
});

test('empty and separator-only text give no tokens', () => {
  assert.deepEqual(tokenize(''), []);
  assert.deepEqual(tokenize('  -- !! .. \t\n'), []);
});

test('digits and letters mix within a token', () => {
  assert.deepEqual(tokenize('abc123 4xx 2024-01-02T03:04:05Z'), ['abc123', '4xx', '2024', '01', '02t03', '04', '05z']);
});

test('duplicates are kept and the index is the position', () => {
  const tokens = tokenize('to be or not to be');
  assert.deepEqual(tokens, ['to', 'be', 'or', 'not', 'to', 'be']);
  assert.equal(tokens.indexOf('not'), 3);
  assert.equal(tokens.lastIndexOf('be'), 5);
});

test('unicode letters and digits form tokens, lowercased', () => {
  assert.deepEqual(tokenize('École Naïve ÜBER straße'), ['école', 'naïve', 'über', 'straße']);
  assert.deepEqual(tokenize('Привет, Мир'), ['привет', 'мир']);
  assert.deepEqual(tokenize('日本語のテキスト'), ['日本語のテキスト']);
  // toLowerCase picks the final form of sigma at the end of a token
  assert.deepEqual(tokenize('ΟΔΟΣ'), ['οδο\u03c2']);
  // Arabic-Indic digits are \p{N}
  assert.deepEqual(tokenize('x٣٤ y'), ['x٣٤', 'y']);
  // fullwidth letters
  assert.deepEqual(tokenize('ＡＢＣ def'), ['ａｂｃ', 'def']);
});

test('punctuation and symbols outside ASCII separate tokens', () => {
  assert.deepEqual(tokenize('a—b…c€d«e»'), ['a', 'b', 'c', 'd', 'e']);
  assert.deepEqual(tokenize('a\u00a0b\u3000c'), ['a', 'b', 'c']);
});

test('combining marks stay inside a run but do not start one', () => {
  // e + combining acute
  assert.deepEqual(tokenize('cafe\u0301 ok'), ['cafe\u0301', 'ok']);
  assert.deepEqual(tokenize('\u0301abc'), ['abc']);
  assert.deepEqual(tokenize('x \u0301\u0301 y'), ['x', 'y']);
});

test('characters outside the basic plane', () => {
  // emoji are symbols: separators
  assert.deepEqual(tokenize('hi😀there'), ['hi', 'there']);
  // mathematical bold capital A is a letter (with no lowercase form)
  assert.deepEqual(tokenize('𝐀b 𝟏'), ['𝐀b', '𝟏']);
  // a lone surrogate separates
  assert.deepEqual(tokenize('ab\ud800cd'), ['ab', 'cd']);
  assert.deepEqual(tokenize('ab\udc00'), ['ab']);
});

test('long tokens are cut to the maximum length', () => {
  assert.equal(MAX_TOKEN_LENGTH, 255);
  const long = 'a'.repeat(300);
  assert.deepEqual(tokenize(`x ${long} y`), ['x', 'a'.repeat(255), 'y']);
  assert.deepEqual(tokenize('B'.repeat(255)), ['b'.repeat(255)]);
  // a surrogate pair straddling the cut is dropped whole
  const astral = 'a'.repeat(254) + '𝐀' + 'a';
  const [cut] = tokenize(astral);
  assert.equal(cut, 'a'.repeat(254));
});

test('tokens of long text are plain copies, usable as keys', () => {
  const text = 'prefix ' + 'Word'.repeat(10) + ' suffix';
  const tokens = tokenize(text);
  assert.deepEqual(tokens, ['prefix', 'word'.repeat(10), 'suffix']);
  assert.equal(new Map([[tokens[1], 1]]).get('word'.repeat(10)), 1);
});
