import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TermHash, hashBytes } from '../../../src/engine/memtable/index.js';

function key(s: string): Buffer {
  return Buffer.from(s, 'utf8');
}

test('finds every term it holds through many rehashes, per field, and nothing else', () => {
  const dict = new TermHash();
  const n = 50_000;
  for (let i = 0; i < n; i++) {
    for (const field of [0, 1]) {
      const k = key(`term-${i}`);
      const hash = hashBytes(k, 0, k.length, field);
      assert.equal(dict.find(field, k, 0, k.length, hash), -1);
      const t = dict.insert(field, k, 0, k.length, hash, i * 2 + field, i);
      assert.equal(t, i * 2 + field, 'term numbers are dense in order of first sight');
    }
  }
  assert.equal(dict.size, 2 * n);
  for (let i = 0; i < n; i += 7) {
    for (const field of [0, 1]) {
      const k = key(`term-${i}`);
      const t = dict.find(field, k, 0, k.length, hashBytes(k, 0, k.length, field));
      assert.equal(dict.payload(t), i * 2 + field);
      assert.equal(dict.localIndex(t), i);
      assert.deepEqual(Buffer.from(dict.bytesOf(t)), k);
    }
  }
  const absent = key(`term-${n}`);
  assert.equal(dict.find(0, absent, 0, absent.length, hashBytes(absent, 0, absent.length, 0)), -1);
  // a key found inside a larger buffer, at an offset
  const inside = Buffer.from('xx term-42 yy');
  assert.equal(dict.payload(dict.find(1, inside, 3, 10, hashBytes(inside, 3, 10, 1))), 85);
});

test('a hash collision is told apart by the bytes', () => {
  const dict = new TermHash();
  const a = key('alpha');
  const b = key('bravo');
  // both inserted under the same hash: the table must compare the bytes
  dict.insert(0, a, 0, a.length, 12345, 1, 0);
  dict.insert(0, b, 0, b.length, 12345, 2, 1);
  assert.equal(dict.payload(dict.find(0, a, 0, a.length, 12345)), 1);
  assert.equal(dict.payload(dict.find(0, b, 0, b.length, 12345)), 2);
  const c = key('charl');
  assert.equal(dict.find(0, c, 0, c.length, 12345), -1);
});
