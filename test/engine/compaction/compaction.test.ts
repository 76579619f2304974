import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine, executeSearch, type CompactionEvents, type MergePlan } from '../../../src/engine/index.js';
import { openMetastore, type Metastore } from '../../../src/metastore/index.js';
import { writeDocs } from '../../support/engine-writes.js';
import { testEngineOptions } from '../../support/engine-options.js';

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
});
