import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Engine, executeSearch } from '../../../src/engine/index.js';
import { openMetastore, type Metastore } from '../../../src/metastore/index.js';
import { writeDocs } from '../../support/engine-writes.js';
import { testEngineOptions } from '../../support/engine-options.js';

const INDEX = 'logs';

function options(dataDir: string, metastore: Metastore, memtableMaxBytes = 1 << 30) {
  return testEngineOptions(dataDir, metastore, { memtableMaxBytes });
}

/** Every document of the index: marker → how many times it is there, and the `_lid`s seen. */
function inventory(engine: Engine): { markers: Map<string, number>; lids: number[] } {
  const result = executeSearch(engine.searchTargets([INDEX]), { query: { kind: 'match_all' }, from: 0, size: 10_000, sort: [], trackTotalHits: true });
  const markers = new Map<string, number>();
  const lids: number[] = [];
  for (const hit of result.hits) {
    const source = JSON.parse(hit.source) as { marker: string; _lid: number };
    markers.set(source.marker, (markers.get(source.marker) ?? 0) + 1);
    lids.push(source._lid);
  }
  assert.equal(result.total, result.hits.length);
  return { markers, lids };
}

function docs(prefix: string, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    index: INDEX,
    // every tenth document is nested: the general path, in the log and in the replay
    doc: i % 10 === 0 ? { marker: `${prefix}-${i}`, _line: `nested ${prefix} ${i}`, ctx: { user: `u${i}` } } : { marker: `${prefix}-${i}`, _line: `flat ${prefix} line ${i}`, status: 200 + (i % 5) },
  }));
}

describe('write-ahead log replay after an unclean stop', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-replay-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  /** The data directory as a crash would leave it: a copy taken while the engine still runs. */
  const crashImage = (from: string, name: string) => {
    const to = path.join(root, name);
    fs.cpSync(from, to, { recursive: true });
    return to;
  };

  it('takes writes and searches before the replay, then holds every acknowledged document once', async () => {
    const first = path.join(root, 'first');
    const metastore = await openMetastore({ kind: 'sqlite', path: path.join(first, 'metastore.sqlite') });
    const engine = await Engine.open(options(first, metastore));
    assert.ok((await writeDocs(engine, docs('flushed', 200))).every((o) => o.ok));
    await engine.flush([INDEX]);
    assert.ok((await writeDocs(engine, docs('logged', 300))).every((o) => o.ok));
    const image = crashImage(first, 'image-1');
    await engine.close();
    await metastore.close();

    const metastore2 = await openMetastore({ kind: 'sqlite', path: path.join(image, 'metastore.sqlite') });
    const restarted = await Engine.load(options(image, metastore2));
    assert.equal(restarted.recovered, false);
    // the flushed segment answers at once; the logged documents come with the replay
    assert.equal(inventory(restarted).markers.size, 200);
    const during = await writeDocs(restarted, docs('during', 50));
    assert.ok(during.every((o) => o.ok));
    assert.equal(inventory(restarted).markers.size, 250, 'a write taken during the replay is searchable at once');
    // a flush asked for during the replay waits for it: the replayed documents go first
    const flushed = restarted.flush([INDEX]);
    await restarted.recover();
    assert.equal(restarted.recovered, true);
    await flushed;

    const { markers, lids } = inventory(restarted);
    assert.equal(markers.size, 550);
    for (const [marker, n] of markers) assert.equal(n, 1, `${marker} found ${n} times`);
    assert.equal(new Set(lids).size, lids.length, 'no _lid handed out twice');
    const duringLids = during.map((o) => (o.ok ? o.lid : 0));
    assert.ok(Math.min(...duringLids) > 500, `writes during the replay get lids after the logged ones (got ${Math.min(...duringLids)})`);
    assert.equal(Math.max(...lids), 550);
    const nested = executeSearch(restarted.searchTargets([INDEX]), {
      query: { kind: 'term', field: 'ctx.user', value: 'u10' },
      from: 0,
      size: 10,
      sort: [],
      trackTotalHits: true,
    });
    assert.equal(nested.total, 3, 'a nested document of each batch is indexed by the general path, replayed or not');

    // and again from the state after that flush: nothing is replayed twice
    const second = crashImage(image, 'image-2');
    await restarted.close();
    await metastore2.close();
    const metastore3 = await openMetastore({ kind: 'sqlite', path: path.join(second, 'metastore.sqlite') });
    const again = await Engine.open(options(second, metastore3));
    const after = inventory(again);
    assert.equal(after.markers.size, 550);
    for (const [marker, n] of after.markers) assert.equal(n, 1, `${marker} found ${n} times after a second restart`);
    await again.close();
    await metastore3.close();
  });

  it('commits the replayed memtable before a memtable of writes taken during the replay', async () => {
    const first = path.join(root, 'order');
    const metastore = await openMetastore({ kind: 'sqlite', path: path.join(first, 'metastore.sqlite') });
    const engine = await Engine.open(options(first, metastore));
    assert.ok((await writeDocs(engine, docs('logged', 100))).every((o) => o.ok));
    const image = crashImage(first, 'order-image');
    await engine.close();
    await metastore.close();

    const metastore2 = await openMetastore({ kind: 'sqlite', path: path.join(image, 'metastore.sqlite') });
    // every write fills its memtable: the one taken during the replay asks for a flush at once
    const restarted = await Engine.load(options(image, metastore2, 1));
    const shard = restarted.shard(INDEX)!;
    const committed: number[] = [];
    const adopted = shard.onSegmentFlushed;
    shard.onSegmentFlushed = () => {
      const records = shard.segmentRecords();
      committed.push(records[records.length - 1]!.maxLid);
      adopted?.();
    };
    assert.ok((await writeDocs(restarted, docs('during', 10))).every((o) => o.ok));
    await restarted.recover();
    await restarted.flush([INDEX]);
    assert.deepEqual(committed, [100, 110], 'the lower lids are committed first');
    assert.equal(inventory(restarted).markers.size, 110);
    await restarted.close();
    await metastore2.close();
  });
});
