import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { IndexShard } from '../../../src/engine/shard/index-shard.js';
import { buildDocument } from '../../../src/engine/document/index.js';
import { ShardWriteBatch } from '../../../src/engine/ingest/index.js';
import { openMetastore } from '../../../src/metastore/index.js';
import { metastoreCatalog } from '../../../src/node/metastore-catalog.js';
import { LocalObjectStore } from '../../../src/storage/index.js';
import { SegmentWriterPool } from '../../../src/engine/segment-writer-pool/index.js';
import { pino } from 'pino';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-flush-queue-'));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('each memtable committed from the flush queue is reported at once, before the ones queued behind it', async () => {
  const metastore = await openMetastore({ kind: 'sqlite', path: path.join(dataDir, 'metastore.sqlite') });
  try {
    const catalog = metastoreCatalog(metastore);
    const record = { name: 'queued', uuid: randomUUID(), createdAtMs: Date.now(), mappings: null, settings: {} };
    await catalog.createIndex(record);
    const writer = new SegmentWriterPool({ logger: pino({ level: 'silent' }) });
    const shard = new IndexShard(record, [], dataDir, catalog, new LocalObjectStore(path.join(dataDir, 'objects')), writer);
    const seen: Array<{ segments: number; docs: number }> = [];
    shard.onSegmentFlushed = () => seen.push({ segments: shard.segmentRecords().length, docs: shard.docCount });
    let lid = 0;
    const add = async (n: number) => {
      const batch = new ShardWriteBatch(Buffer.alloc(0), shard.fieldSlots.list, n);
      for (let i = 0; i < n; i++) {
        lid++;
        batch.addGeneral(buildDocument({ _line: `line ${lid}` }, shard.mapping, { id: BigInt(lid), lid }, 1_700_000_000_000 + lid));
      }
      batch.walRecord(shard.name, shard.uuid);
      await shard.addBatch(batch, 1);
    };
    await add(100);
    const first = shard.flush();
    // writes go on while the first memtable is being written: a second one queues behind it
    await add(50);
    const second = shard.flush();
    await add(25);
    await Promise.all([first, second]);
    assert.deepEqual(seen, [
      { segments: 1, docs: 175 },
      { segments: 2, docs: 175 },
    ]);
    await shard.close();
    await writer.close();
  } finally {
    await metastore.close();
  }
});
