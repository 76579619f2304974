import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildDocument, splitIdentity, withIdentity } from '../../../src/engine/document/index.js';
import { IndexMapping } from '../../../src/engine/mapping/index.js';
import { Memtable } from '../../../src/engine/memtable/index.js';
import { openSegment, withoutDocs, writeSegment, mergeSegments } from '../../../src/engine/segment/index.js';
import { DeletedDocs, docOfLid } from '../../../src/engine/shard/deleted-docs.js';
import { clientKey, isClientKey, parseGeneratedId } from '../../../src/common/index.js';
import { tempDir } from '../../support/node.js';

function memtable(n: number, firstLid = 1): Memtable {
  const mapping = new IndexMapping();
  const m = new Memtable(`seg-${firstLid}`);
  for (let i = 0; i < n; i++) {
    const lid = firstLid + i;
    m.add(buildDocument({ _line: `line ${lid} ${lid % 2 ? 'odd' : 'even'}`, level: lid % 3 ? 'info' : 'warn', n: lid }, mapping, { id: BigInt(lid), lid }, 1000 + lid));
  }
  return m;
}

test('deleted lids become sorted doc ids per segment, recomputed after each delete and as a memtable grows', () => {
  const deleted = new DeletedDocs();
  const m = memtable(10);
  assert.equal(deleted.docsOf(m), undefined);
  deleted.add(3);
  deleted.add(7);
  deleted.add(99);
  assert.deepEqual([...deleted.docsOf(m)!], [2, 6]);
  assert.deepEqual(deleted.lidsOf(m), [3, 7]);
  deleted.add(1);
  assert.deepEqual([...deleted.docsOf(m)!], [0, 2, 6]);
  assert.equal(docOfLid(m, 10), 9);
  assert.equal(docOfLid(m, 11), -1);
  deleted.forget([1, 3, 7]);
  assert.equal(deleted.docsOf(m), undefined);
});

test('a merge of live-docs views leaves deleted docs out of the written file', async () => {
  const dir = tempDir('svc-live-docs-');
  try {
    const a = memtable(6, 1);
    const b = memtable(6, 7);
    const file = path.join(dir, 'merged.seg');
    // lids 2 (even) and 9 (odd, warn) deleted; lid 12 is the last doc of b
    await writeSegment(mergeSegments('merged', [withoutDocs(a, Uint32Array.of(1)), withoutDocs(b, Uint32Array.of(2, 5))]), file);
    const merged = openSegment(file, 'merged');
    try {
      assert.equal(merged.numDocs, 9);
      assert.deepEqual([...merged.numeric('_lid')!], [1, 3, 4, 5, 6, 7, 8, 10, 11]);
      assert.equal(merged.docFreq('_line', '2'), 0, 'a term only deleted docs held is gone');
      assert.equal(merged.postings('_line', 'even')!.length, 4);
      assert.deepEqual([...merged.exists('n')].length, 9);
      assert.match(merged.source(1), /"line 3 odd"/);
    } finally {
      merged.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('client _id keys never meet generated ids; identity members round-trip through the stored source', () => {
  const key = clientKey('web-1');
  assert.ok(isClientKey(key));
  assert.equal(clientKey('web-1'), key);
  assert.notEqual(clientKey('web-2'), key);
  assert.ok(!isClientKey(parseGeneratedId('1234567890')!));
  assert.equal(parseGeneratedId('web-1'), undefined);
  const stored = withIdentity('{"_line":"a \\"quoted\\" ,\\"_id\\":\\"x\\"","_ts":1,"_lid":2}', 'id "with" quotes', 3);
  const split = splitIdentity(stored)!;
  assert.deepEqual(split.identity, { id: 'id "with" quotes', version: 3 });
  assert.equal(split.base, '{"_line":"a \\"quoted\\" ,\\"_id\\":\\"x\\"","_ts":1,"_lid":2}');
  assert.deepEqual(JSON.parse(stored), { _line: 'a "quoted" ,"_id":"x"', _ts: 1, _lid: 2, _id: 'id "with" quotes', _version: 3 });
});
