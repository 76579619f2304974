/**
 * A merge made away from the engine holding the index (the storage role of a cluster): from the
 * object store and the catalog, committed in the catalog, then taken in by the engine. Deletes
 * the engine records before the merge reads its inputs are left out of the merged file; those
 * recorded before the commit are carried by it; those recorded after it are refused on the
 * replaced segments and recorded again on the merged one.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { Engine, executeSearch, mergeFromStore, SegmentWriterPool } from '../../../src/engine/index.js';
import { openMetastore } from '../../../src/metastore/index.js';
import { LocalObjectStore } from '../../../src/storage/index.js';
import { writeDocs } from '../../support/engine-writes.js';
import { testEngineOptions } from '../../support/engine-options.js';

const INDEX = 'st';

function countAll(engine: Engine): number {
  return executeSearch(engine.searchTargets([INDEX]), { query: { kind: 'match_all' }, from: 0, size: 0, sort: [], trackTotalHits: true }).total;
}

describe('a merge committed by another process', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-store-merge-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is taken in by the engine, and every delete made before, during or after it sticks', async () => {
    const metastore = await openMetastore({ kind: 'sqlite', path: path.join(root, 'metastore.sqlite') });
    const objects = path.join(root, 'objects');
    const options = (dataDir: string) => testEngineOptions(dataDir, metastore, { segmentStore: new LocalObjectStore(objects), mergesHere: () => false });
    let engine = await Engine.open(options(path.join(root, 'cache')));
    const writer = new SegmentWriterPool({ logger: pino({ level: 'silent' }) });
    try {
      const ids: string[] = [];
      for (let round = 0; round < 3; round++) {
        const outcomes = await writeDocs(engine, Array.from({ length: 50 }, (_, i) => ({ index: INDEX, doc: { _line: `round ${round} line ${i}` } })));
        for (const o of outcomes) if (o.ok) ids.push(o.id);
        await engine.flush([INDEX]);
      }
      await engine.compactionIdle();
      const inputs = await metastore.segments.listSegments(INDEX);
      assert.equal(inputs.length, 3, 'the engine merges nothing itself');
      const del = async (id: string) => {
        const [outcome] = await engine.write(Buffer.alloc(0), [{ index: INDEX, start: 0, end: 0, action: 'delete', id }]);
        assert.ok(outcome!.ok && outcome!.result === 'deleted');
      };

      // before the merge reads its inputs: left out of the merged file
      await del(ids[0]!);
      await engine.flush([INDEX]);
      const plan = { from: 0, to: 1, segmentIds: inputs.map((s) => s.id) };
      const read = await metastore.segments.listSegments(INDEX);
      const merged = await mergeFromStore({
        scratchDir: path.join(root, 'storage'),
        store: new LocalObjectStore(objects),
        writer,
        index: { name: INDEX, uuid: engine.shard(INDEX)!.uuid },
        plan,
        inputs: read,
      });
      assert.equal(merged.record.numDocs, 149);
      assert.equal(merged.droppedLids.length, 1);

      // after the merge read its inputs, before its commit: carried by the commit
      await del(ids[60]!);
      await engine.flush([INDEX]);
      const committed = await metastore.segments.commitMerge(INDEX, plan.segmentIds, merged.record, merged.droppedLids);
      assert.equal(committed.deletedLids?.length, 1);
      assert.equal(countAll(engine), 148, 'the engine still searches its own segments, with the same deletes');

      // after the commit, before the engine took the merge in: its delete update is refused,
      // the flush takes the merge in and records the delete on the merged segment
      await del(ids[120]!);
      await engine.flush([INDEX]);
      const held = engine.shard(INDEX)!.segmentRecords();
      assert.deepEqual(
        held.map((r) => r.id),
        [merged.record.id],
      );
      assert.equal(countAll(engine), 147);
      const live = await metastore.segments.listSegments(INDEX);
      assert.deepEqual(
        live.map((r) => r.id),
        [merged.record.id],
      );
      assert.equal(live[0]!.deletedLids?.length, 2, 'both deletes made while the merge ran are in the catalog');
      const files = fs.readdirSync(path.join(root, 'cache', 'indexes', engine.shard(INDEX)!.uuid)).filter((f) => f.endsWith('.seg'));
      assert.deepEqual(files, [path.basename(merged.record.path)], 'the local copies of the replaced files are gone');
      assert.equal(await engine.syncSegments(INDEX), false, 'nothing more to take in');

      // the catalog and the object store alone give the same documents
      await engine.close();
      engine = await Engine.open(options(path.join(root, 'other')));
      assert.equal(countAll(engine), 147);
    } finally {
      await engine.close();
      await writer.close();
      await metastore.close();
    }
  });
});
