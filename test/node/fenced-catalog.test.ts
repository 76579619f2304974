/**
 * The catalog of a cache node in a cluster refuses every write for an index that may now be held
 * by another node, and writes nothing for it; reads and writes for its own indexes go through.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { SegmentRecord } from '../../src/engine/index.js';
import { openMetastore } from '../../src/metastore/index.js';
import { fencedCatalog, metastoreCatalog } from '../../src/node/metastore-catalog.js';

const segment = (index: string, id: string): SegmentRecord => ({
  id,
  index,
  level: 0,
  path: `indexes/${index}/${id}.seg`,
  numDocs: 10,
  minTs: 1,
  maxTs: 2,
  maxLid: 10,
  sizeBytes: 100,
  createdAtMs: 1,
});

describe('fenced catalog', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-fenced-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('commits for the indexes this node holds and refuses, with 503 and no write, those moved away', async () => {
    const metastore = await openMetastore({ kind: 'sqlite', path: path.join(dir, 'metastore.sqlite') });
    try {
      const plain = metastoreCatalog(metastore);
      for (const name of ['mine', 'moved']) await plain.createIndex({ name, uuid: `u-${name}`, createdAtMs: 1, mappings: null, settings: {} });
      await plain.commitSegment(segment('moved', 'm0'), { properties: {} });
      const held = new Set(['mine', 'moved']);
      const catalog = fencedCatalog(plain, (index) => held.has(index));

      await catalog.commitSegment(segment('mine', 's1'), { properties: { a: { type: 'keyword' } } });
      assert.deepEqual((await catalog.listSegments('mine')).map((s) => s.id), ['s1']);

      held.delete('moved');
      const refused = async (what: string, write: () => Promise<void>) =>
        assert.rejects(write, (err: { status?: number }) => err.status === 503, `${what} is refused`);
      await refused('a flush', () => catalog.commitSegment(segment('moved', 'm1'), { properties: {} }));
      await refused('a merge', () => catalog.replaceSegments('moved', ['m0'], segment('moved', 'm2')));
      await refused('a mapping', () => catalog.updateMappings('moved', { properties: { b: { type: 'long' } } }));
      await refused('deletes', () => catalog.updateDeletedLids('moved', [{ segmentId: 'm0', deletedLids: [3] }]));
      const left = await catalog.listSegments('moved');
      assert.deepEqual(left.map((s) => [s.id, s.deletedLids ?? []]), [['m0', []]], 'nothing of the moved index was written');
      const moved = (await catalog.listIndexes()).find((r) => r.name === 'moved')!;
      assert.deepEqual(moved.mappings ?? {}, { properties: {} });

      // the index this node holds is still written
      await catalog.updateDeletedLids('mine', [{ segmentId: 's1', deletedLids: [4] }]);
      assert.deepEqual((await catalog.listSegments('mine'))[0]!.deletedLids, [4]);
    } finally {
      await metastore.close();
    }
  });
});
