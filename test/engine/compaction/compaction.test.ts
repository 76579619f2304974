import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine, executeSearch, type CompactionEvents, type MergePlan } from '../../../src/engine/index.js';
import { openMetastore, type Metastore } from '../../../src/metastore/index.js';
import { writeDocs } from '../../support/engine-writes.js';
import { testEngineOptions } from '../../support/engine-options.js';
import { docStoreOf } from '../segment/assert-segment.js';

const policy = { l0MergeFactor: 3, l1MergeFactor: 3, maxMergeSegments: 8, l2MinDocs: 1_000_000, maxSegmentDocs: 10_000_000 };

async function openEngine(dataDir: string, metastore: Metastore, events?: CompactionEvents): Promise<Engine> {
  return Engine.open(testEngineOptions(dataDir, metastore, { mergePolicy: policy, compactionEvents: events }));
}

function countAll(engine: Engine, index: string, q = 'match_all'): number {
  const query = q === 'match_all' ? ({ kind: 'match_all' } as const) : ({ kind: 'match', field: '_line', text: q, operator: 'or' } as const);
  return executeSearch(engine.searchTargets([index]), { query, from: 0, size: 0, sort: [], trackTotalHits: true }).total;
}

describe('compaction', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-compaction-'));
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('merges flushed segments into one L1 segment, deletes the old files, and survives a restart', async () => {
    const metastore = await openMetastore({ kind: 'sqlite', path: path.join(dataDir, 'metastore.sqlite') });
    const log: string[] = [];
    const events: CompactionEvents = {
      started: (p: MergePlan) => log.push(`started ${p.from}->${p.to}`),
      finished: (p: MergePlan, docs: number) => log.push(`finished ${p.from}->${p.to} ${docs}`),
      failed: (_p: MergePlan, cause: string) => log.push(`failed ${cause}`),
      fileDeleted: (_ns: number, ok: boolean) => log.push(`deleted ${ok}`),
    };
    let engine = await openEngine(dataDir, metastore, events);
    for (let round = 0; round < 3; round++) {
      const ops = Array.from({ length: 100 }, (_, i) => ({ index: 'merge-me', doc: { _line: `round ${round} line ${i} ${i % 2 ? 'odd' : 'even'}`, n: i } }));
      const outcomes = await writeDocs(engine, ops);
      assert.ok(outcomes.every((o) => o.ok));
      await engine.flush(['merge-me']);
    }
    await engine.compactionIdle();

    const segments = await metastore.segments.listSegments('merge-me');
    assert.equal(segments.length, 1, 'three L0 segments became one');
    assert.equal(segments[0]!.level, 1);
    assert.equal(segments[0]!.numDocs, 300);
    assert.deepEqual(log, ['started 0->1', 'finished 0->1 300', 'deleted true', 'deleted true', 'deleted true']);
    const files = fs.readdirSync(path.join(dataDir, 'indexes', engine.shard('merge-me')!.uuid)).filter((f) => f.endsWith('.seg'));
    assert.deepEqual(files, [path.basename(segments[0]!.path)], 'replaced files are gone');
    assert.equal(countAll(engine, 'merge-me'), 300);
    assert.equal(countAll(engine, 'merge-me', 'odd'), 150);
    assert.equal(countAll(engine, 'merge-me', 'round'), 300);

    await engine.close();
    engine = await openEngine(dataDir, metastore);
    assert.equal(countAll(engine, 'merge-me'), 300, 'nothing is lost or replayed twice after a restart');
    await engine.close();
    await metastore.close();
  });

  it('merges the quick files of an idle index into one compact segment, once per idle period, and releases it after', async () => {
    const metastore = await openMetastore({ kind: 'sqlite', path: path.join(dataDir, 'idle-metastore.sqlite') });
    const engine = await openEngine(path.join(dataDir, 'idle'), metastore);
    try {
      const levels = () => engine.shard('rest')!.segmentRecords().map((r) => r.level);
      const write = async (round: number) => {
        const ops = Array.from({ length: 200 }, (_, i) => ({ index: 'rest', doc: { _line: `rest ${round} line ${i} ${i % 2 ? 'odd' : 'even'}`, n: i } }));
        assert.ok((await writeDocs(engine, ops)).every((o) => o.ok));
        await engine.flush(['rest']);
      };
      await write(0);
      assert.deepEqual(levels(), [0]);
      const layouts = () => engine.shard('rest')!.segmentRecords().flatMap((r) => docStoreOf(path.join(dataDir, 'idle', r.path)).layouts);
      assert.deepEqual(layouts(), [1], 'a flush writes a quick file: text doc blocks');
      const later = () => Date.now() + 7_200_000;
      assert.deepEqual(engine.releaseIdle(later()), [], 'merged before it is released');
      await engine.compactionIdle();
      assert.deepEqual(levels(), [1]);
      assert.deepEqual(layouts(), [2], 'the merge wrote a compact file: column doc blocks');
      assert.deepEqual(engine.releaseIdle(later()), ['rest']);
      assert.equal(countAll(engine, 'rest'), 200);
      // used again: two more flushes, merged at the next idle period
      await write(1);
      await write(2);
      assert.deepEqual(levels().sort(), [0, 0, 1]);
      assert.deepEqual(engine.releaseIdle(later()), []);
      await engine.compactionIdle();
      assert.deepEqual(levels().sort(), [1, 1]);
      assert.equal(countAll(engine, 'rest'), 600);
      assert.equal(countAll(engine, 'rest', 'odd'), 300);
      // a single quick file is rewritten by a force merge too; a single compact one is left
      const ops = Array.from({ length: 50 }, (_, i) => ({ index: 'one', doc: { _line: `one ${i}` } }));
      assert.ok((await writeDocs(engine, ops)).every((o) => o.ok));
      await engine.flush(['one']);
      const oneLevels = () => engine.shard('one')!.segmentRecords().map((r) => `${r.level}:${r.id}`);
      assert.match(oneLevels().join(), /^0:/);
      await engine.forceMerge('one');
      const merged = oneLevels();
      assert.match(merged.join(), /^1:/);
      await engine.forceMerge('one');
      assert.deepEqual(oneLevels(), merged);
      assert.equal(countAll(engine, 'one'), 50);
    } finally {
      await engine.close();
    }
  });

  it('only_expunge_deletes rewrites the segments holding deletes and leaves the others; deletes made during a merge stay deleted', async () => {
    const metastore = await openMetastore({ kind: 'sqlite', path: path.join(dataDir, 'expunge-metastore.sqlite') });
    // resolved when a merge has taken the deletes it leaves out, before it writes its file
    let mergeStarted: () => void = () => undefined;
    const events: CompactionEvents = { started: () => mergeStarted(), finished: () => undefined, failed: () => undefined, fileDeleted: () => undefined };
    const engine = await openEngine(path.join(dataDir, 'expunge'), metastore, events);
    try {
      const ids: string[] = [];
      for (let round = 0; round < 2; round++) {
        const outcomes = await writeDocs(engine, Array.from({ length: 100 }, (_, i) => ({ index: 'ex', doc: { _line: `ex ${round} ${i}` } })));
        for (const o of outcomes) if (o.ok) ids.push(o.id);
        await engine.flush(['ex']);
      }
      const before = engine.shard('ex')!.segmentRecords().map((r) => r.id);
      assert.equal(before.length, 2);
      // delete three documents of the first segment only
      const del = (which: readonly string[]) => engine.write(Buffer.alloc(0), which.map((id) => ({ index: 'ex', start: 0, end: 0, action: 'delete' as const, id })));
      assert.ok((await del(ids.slice(0, 3))).every((o) => o.ok && o.result === 'deleted'));
      await engine.forceMerge('ex', true);
      const after = engine.shard('ex')!.segmentRecords();
      assert.equal(after.length, 2);
      assert.ok(!after.some((r) => r.id === before[0]), 'the segment with deletes was rewritten');
      assert.ok(after.some((r) => r.id === before[1]), 'the clean segment was left');
      assert.equal(countAll(engine, 'ex'), 197);
      assert.equal(engine.shard('ex')!.deletedDocCount, 0, 'the rewrite dropped the deleted documents');

      // a delete that lands while a merge runs is kept in the merged segment
      const started = new Promise<void>((resolve) => (mergeStarted = resolve));
      const merging = engine.forceMerge('ex');
      await started;
      const late = await del(ids.slice(150, 152));
      assert.ok(late.every((o) => o.ok && o.result === 'deleted'));
      await merging;
      assert.equal(countAll(engine, 'ex'), 195);
      assert.equal(engine.shard('ex')!.segmentRecords().length, 1);
      // the merged segment's catalog record holds them: what a restart reads
      assert.deepEqual(engine.shard('ex')!.segmentRecords()[0]!.deletedLids?.length, 2);
    } finally {
      await engine.close();
    }
  });
});
