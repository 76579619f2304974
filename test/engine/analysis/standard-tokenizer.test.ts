/**
 * The standard analyzer against outputs of Elasticsearch's `standard` analyzer (`_analyze`) and
 * Lucene's StandardAnalyzer tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzerFor, standardSpans, standardTokens, STANDARD_MAX_TOKEN_LENGTH } from '../../../src/engine/analysis/index.js';

const CASES: Array<[string, string[]]> = [
  ["The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.", ['the', '2', 'quick', 'brown', 'foxes', 'jumped', 'over', 'the', 'lazy', "dog's", 'bone']],
  ["O'Reilly's you're don't", ["o'reilly's", "you're", "don't"]],
  ['B2B 2B R2D2 C3PO', ['b2b', '2b', 'r2d2', 'c3po']],
  ['some-dashed-phrase dogs,chase,cats ac/dc', ['some', 'dashed', 'phrase', 'dogs', 'chase', 'cats', 'ac', 'dc']],
  ['21.35 1,000 216.239.63.104 v1.2 1.5ms', ['21.35', '1,000', '216.239.63.104', 'v1.2', '1.5ms']],
  ['U.S.A. example.com foo_bar a:b', ['u.s.a', 'example.com', 'foo_bar', 'a:b']],
  ['user@example.com C++ C# 10:30', ['user', 'example.com', 'c', 'c', '10', '30']],
  ['GET /api/v1/users?id=42 HTTP/1.1', ['get', 'api', 'v1', 'users', 'id', '42', 'http', '1.1']],
  ['"quoted" \'single\' (paren) [bracket]', ['quoted', 'single', 'paren', 'bracket']],
  ['trailing. period, comma; semi', ['trailing', 'period', 'comma', 'semi']],
  ['안녕하세요 한글입니다', ['안녕하세요', '한글입니다']],
  ['我是中国人。 １２３４ Ｔｅｓｔｓ', ['我', '是', '中', '国', '人', '１２３４', 'ｔｅｓｔｓ']],
  ['ゲーム ひらがな', ['ゲーム', 'ひ', 'ら', 'が', 'な']],
  ['การที่ได้ต้องแสดงว่างานดี', ['การที่ได้ต้องแสดงว่างานดี']],
  ['Βικιπαίδεια ΟΔΟΣ İstanbul', ['βικιπαίδεια', 'οδοσ', 'istanbul']],
  ['naïve café e\u0301cole', ['naïve', 'café', 'e\u0301cole']],
  ['💩 💩💩 👍🏽 🇺🇸🇫🇷', ['💩', '💩', '💩', '👍🏽', '🇺🇸', '🇫🇷']],
  ['👩\u200d❤\ufe0f\u200d👩 ok', ['👩\u200d❤\ufe0f\u200d👩', 'ok']],
  ['© 2024 ©\ufe0f', ['2024', '©\ufe0f']],
  ['', []],
  ['  -- !! .. \t\n', []],
];

test('tokens as Elasticsearch standard analyzer gives them', () => {
  for (const [text, expected] of CASES) assert.deepEqual(standardTokens(text), expected, text);
});

test('words longer than 255 code units are split into pieces, not cut', () => {
  const word = 'a'.repeat(600);
  assert.deepEqual(standardTokens(`${word} b`), ['a'.repeat(STANDARD_MAX_TOKEN_LENGTH), 'a'.repeat(STANDARD_MAX_TOKEN_LENGTH), 'a'.repeat(90), 'b']);
  // a surrogate pair is never split
  const astral = 'x' + '𝐀'.repeat(200);
  const pieces = standardTokens(astral);
  assert.equal(pieces.join(''), astral.toLowerCase());
  for (const p of pieces) assert.ok(p.length <= STANDARD_MAX_TOKEN_LENGTH && !/[\ud800-\udbff]$/.test(p));
});

test('spans point at the tokens in the original text', () => {
  for (const [text] of CASES) {
    const spans = standardSpans(text);
    assert.deepEqual(spans.map((s) => s.token), standardTokens(text), text);
    for (const s of spans) assert.equal(s.token.length > 0 && s.end > s.start, true);
  }
  assert.deepEqual(standardSpans("Dog's Bone"), [
    { token: "dog's", start: 0, end: 5 },
    { token: 'bone', start: 6, end: 10 },
  ]);
});

test('_line keeps its own rule, every other text field the standard analyzer', () => {
  assert.deepEqual(analyzerFor('_line').tokens("dog's bone"), ['dog', 's', 'bone']);
  assert.deepEqual(analyzerFor('message').tokens("dog's bone"), ["dog's", 'bone']);
  assert.equal(analyzerFor('message.text').name, 'standard');
});
