/**
 * The id index of a segment file: generated `_id`s ascending beside their docs, client keys left
 * out, found by binary search, whether the column's ids rise with doc order or not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientKey } from '../../../src/common/index.js';
import { buildIdIndex, docOfId } from '../../../src/engine/segment/id-index.js';

test('ids rising with doc order are taken as they are; client keys are left out', () => {
  const column = BigUint64Array.of(100n, clientKey('a'), 105n, 230n, clientKey('b'), 231n);
  const index = buildIdIndex(column);
  assert.deepEqual(Array.from(index.ids), [100n, 105n, 230n, 231n]);
  assert.deepEqual(Array.from(index.docs), [0, 2, 3, 5]);
  for (let d = 0; d < column.length; d++) {
    assert.equal(docOfId(index, column[d]!), column[d]! === clientKey('a') || column[d]! === clientKey('b') ? -1 : d);
  }
  assert.equal(docOfId(index, 101n), -1);
  assert.equal(docOfId(index, 99n), -1);
  assert.equal(docOfId(index, 232n), -1);
});

test('ids that do not rise are sorted, and each is found at its doc', () => {
  const ids: bigint[] = [];
  let x = 1n;
  for (let d = 0; d < 5000; d++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) & 0x7fffffffffffffffn;
    ids.push(x >> 1n);
  }
  const column = BigUint64Array.from(ids);
  const index = buildIdIndex(column);
  for (let k = 1; k < index.ids.length; k++) assert.ok(index.ids[k - 1]! <= index.ids[k]!);
  for (let d = 0; d < column.length; d += 7) assert.equal(docOfId(index, column[d]!), d);
  assert.equal(docOfId(index, 0n), -1);
});

test('an empty column and a column of client keys only have nothing to find', () => {
  assert.equal(docOfId(buildIdIndex(new BigUint64Array(0)), 1n), -1);
  const keysOnly = buildIdIndex(BigUint64Array.of(clientKey('x'), clientKey('y')));
  assert.equal(keysOnly.ids.length, 0);
  assert.equal(docOfId(keysOnly, clientKey('x')), -1);
});
