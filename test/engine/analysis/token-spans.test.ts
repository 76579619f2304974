/** tokenSpans finds the very tokens tokenize gives, with where each one stands in the text. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenSpans, tokenize } from '../../../src/engine/analysis/index.js';

const SAMPLES = [
  'GET /index.html?id=42 HTTP/1.1',
  'Connection refused: upstream ERROR from db-1',
  'naïve café, Zürich — 東京 2024',
  'e\u0301cole \u0301lone mark',
  '𝐀𝐁 emoji 😀 between',
  'x'.repeat(300) + ' tail',
  '',
  '   ...   ',
];

test('the tokens are those of tokenize, in order, and the spans point at them', () => {
  for (const text of SAMPLES) {
    const spans = tokenSpans(text);
    assert.deepEqual(spans.map((s) => s.token), tokenize(text), text);
    for (const s of spans) assert.equal(text.slice(s.start, s.end).toLowerCase().slice(0, s.token.length), s.token);
  }
});
