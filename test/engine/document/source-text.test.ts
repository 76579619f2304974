import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDocument } from '../../../src/engine/document/index.js';
import { IndexMapping } from '../../../src/engine/mapping/index.js';

const identity = { id: 77n, lid: 5 };

function build(text: string, receivedTs = 1_000) {
  return buildDocument(JSON.parse(text), new IndexMapping(), identity, receivedTs, text);
}

test('the stored source keeps the text as sent, with _ts and _lid appended', () => {
  assert.equal(build('{"_line": "a b",  "n": 1.50 }').source, '{"_line": "a b",  "n": 1.50,"_ts":1000,"_lid":5}');
  assert.equal(build('{"_line":"x","_ts":1700000000000}').source, '{"_line":"x","_ts":1700000000000,"_lid":5}');
});

test('falls back to re-serializing when the text cannot be kept', () => {
  // an ISO _ts is stored as epoch ms, metadata keys are dropped, an empty object has no member to follow
  assert.equal(build('{"_line":"x","_ts":"2024-01-01T00:00:00Z"}').source, `{"_line":"x","_ts":${Date.UTC(2024, 0, 1)},"_lid":5}`);
  assert.equal(build('{"_id":"mine","_line":"x"}').source, '{"_line":"x","_ts":1000,"_lid":5}');
  assert.equal(build('{"_line":"x","_lid":99}').source, '{"_line":"x","_lid":5,"_ts":1000}');
  assert.equal(build('{}').source, '{"_ts":1000,"_lid":5}');
  assert.equal(build(' { } ').source, '{"_ts":1000,"_lid":5}');
});

test('a document rebuilt from its stored source is the same document', () => {
  for (const text of ['{"_line": "a b", "user": {"name": "n"}, "tags": ["x", "y"]}', '{"_line":"x","_ts":1700000000000, "n": 3}']) {
    const first = build(text);
    const again = buildDocument(JSON.parse(first.source), new IndexMapping(), identity, 2_000);
    assert.deepEqual({ ...again, source: JSON.parse(again.source) }, { ...first, source: JSON.parse(first.source) });
  }
});
