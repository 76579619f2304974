import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Engine, executeSearch } from '../../../src/engine/index.js';
import { openMetastore } from '../../../src/metastore/index.js';
import { writeDocs } from '../../support/engine-writes.js';
import { testEngineOptions } from '../../support/engine-options.js';

const INDEX = 'sliced';

function docs(prefix: string, n: number) {
  return Array.from({ length: n }, (_, i) => ({ index: INDEX, doc: { _line: `${prefix} line ${i}`, marker: `${prefix}-${i}` } }));
}

describe('a large write is added to the memtable in slices', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sliced-'));
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps concurrent writes in lid order, also when a flush moves the memtable on in the middle of one', async () => {
    const metastore = await openMetastore({ kind: 'sqlite', path: path.join(dataDir, 'metastore.sqlite') });
    const engine = await Engine.open(testEngineOptions(dataDir, metastore));
    await writeDocs(engine, docs('first', 1)); // the index and its fields exist: the fast path from here

    const a = writeDocs(engine, docs('a', 4_000));
    const b = writeDocs(engine, docs('b', 4_000));
    // a flush while the writes are being added moves the memtable on under them
    const flushed = new Promise<void>((resolve, reject) => setImmediate(() => engine.flush([INDEX]).then(resolve, reject)));
    const [outA, outB] = await Promise.all([a, b]);
    await flushed;
    assert.ok([...outA, ...outB].every((o) => o.ok));

    const all = executeSearch(engine.searchTargets([INDEX]), { query: { kind: 'match_all' }, from: 0, size: 10_000, sort: [], trackTotalHits: true });
    assert.equal(all.total, 8_001);
    const seen = new Set(all.hits.map((h) => (JSON.parse(h.source) as { marker: string }).marker));
    assert.equal(seen.size, 8_001, 'each document once');
    // segments, then memtables, each holding its documents in lid order, and lids rising across
    // them: what replay after a crash and "every lid up to a segment's largest is durable" need
    let previous = 0;
    for (const target of engine.searchTargets([INDEX])) {
      const lids = target.segment.numeric('_lid')!;
      for (let d = 0; d < lids.length; d++) {
        assert.ok(lids[d]! > previous, `lid ${lids[d]} after ${previous}`);
        previous = lids[d]!;
      }
    }
    assert.equal(previous, 8_001);
    await engine.close();
    await metastore.close();
  });
});
