import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { IndexedDocument } from '../../../src/engine/document/indexed-document.js';
import { Memtable } from '../../../src/engine/memtable/index.js';
import { mergeSegments, openSegment, writeSegment } from '../../../src/engine/segment/index.js';
import { assertSameSegment } from './assert-segment.js';
import { generateLogs } from './log-corpus.js';

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-merge-'));
});
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function memtableOf(docs: readonly IndexedDocument[], id = 'mem'): Memtable {
  const m = new Memtable(id);
  for (const d of docs) m.add(d);
  return m;
}

describe('merged segments', () => {
  it('equal the concatenation of their parts, as a view and once written and reopened', async () => {
    const a = generateLogs(4_000, { seed: 21, rich: true });
    const b = generateLogs(3_000, { seed: 22, rich: true, startTs: 1_800_000_000_000, startLid: 4_001, startId: 8_000_000_000_000_000_000n });
    const c = generateLogs(500, { seed: 23, startTs: 1_600_000_000_000, startLid: 7_001 });
    await writeSegment(memtableOf(a), path.join(dir, 'a.seg'));
    await writeSegment(memtableOf(b), path.join(dir, 'b.seg'));
    const ra = openSegment(path.join(dir, 'a.seg'));
    const rb = openSegment(path.join(dir, 'b.seg'));
    try {
      // segment files, an empty part and a memtable mixed
      const merged = mergeSegments('m1', [ra, memtableOf([]), rb, memtableOf(c)]);
      const whole = memtableOf([...a, ...b, ...c]);
      assert.equal(merged.id, 'm1');
      assert.equal(merged.minTs, 1_600_000_000_000);
      assertSameSegment(merged, whole, { fromProbes: 20 });

      const info = await writeSegment(merged, path.join(dir, 'm1.seg'));
      assert.equal(info.numDocs, 7_500);
      const reopened = openSegment(path.join(dir, 'm1.seg'));
      try {
        assertSameSegment(reopened, whole, { fromProbes: 20 });
      } finally {
        reopened.close();
      }
    } finally {
      ra.close();
      rb.close();
    }
  });

  it('keeps the first type of a field, converting numbers and dropping other values', () => {
    const d = (lid: number, fields: IndexedDocument['fields']): IndexedDocument => ({
      id: BigInt(lid),
      lid,
      ts: 1000 + lid,
      source: JSON.stringify({ n: lid, _ts: 1000 + lid, _lid: lid }),
      fields,
    });
    const p1 = memtableOf([
      d(1, [{ name: 'code', type: 'long', values: [7] }, { name: 'flag', type: 'boolean', values: [true] }]),
      d(2, [{ name: 'flag', type: 'boolean', values: [false] }]),
    ]);
    const p2 = memtableOf([
      d(3, [{ name: 'code', type: 'keyword', values: ['E42'] }, { name: 'flag', type: 'keyword', values: ['true'] }]),
      d(4, [{ name: 'only2', type: 'keyword', values: ['x'] }]),
    ]);
    const p3 = memtableOf([d(5, [{ name: 'code', type: 'double', values: [2.5] }])]);
    const m = mergeSegments('mixed', [p1, p2, p3]);
    assert.deepEqual(m.fields(), [
      { name: 'code', type: 'long' },
      { name: 'flag', type: 'boolean' },
      { name: 'only2', type: 'keyword' },
    ]);
    assert.deepEqual([...m.numeric('code')!], [7, NaN, NaN, NaN, 2.5]);
    assert.deepEqual([...m.exists('code')], [0, 4]);
    assert.deepEqual([...m.terms('code')], []);
    assert.equal(m.postings('code', 'E42'), null);
    assert.deepEqual([...m.terms('flag')], ['false', 'true']);
    assert.deepEqual([...m.postings('flag', 'true')!], [0]);
    assert.deepEqual([...m.numeric('flag')!], [1, 0, NaN, NaN, NaN]);
    assert.deepEqual([...m.exists('flag')], [0, 1]);
    assert.deepEqual([...m.postings('only2', 'x')!], [3]);
    assert.deepEqual(m.ordinals('only2')!.terms, ['x']);
    assert.deepEqual([...m.ordinals('only2')!.ords], [-1, -1, -1, 0, -1]);
    assert.deepEqual([...m.numeric('_lid')!], [1, 2, 3, 4, 5]);
    assert.deepEqual([...m.ids()], [1n, 2n, 3n, 4n, 5n]);
    assert.equal(m.source(3), p2.source(1));
    assert.equal(m.maxLid, 5);
  });
});
