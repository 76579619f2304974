/**
 * A live index handed over from one engine to another: the owner refuses new writes, ends the
 * ones it took, commits every memtable and delete to the catalog and lets the index go; the
 * other engine opens it from the catalog and the object store alone (no log to read) with every
 * document once. A handover that cannot commit leaves the index with its owner, taking writes.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Engine, type WriteOutcome } from '../../../src/engine/index.js';
import { openMetastore } from '../../../src/metastore/index.js';
import { fencedCatalog, metastoreCatalog } from '../../../src/node/metastore-catalog.js';
import { LocalObjectStore } from '../../../src/storage/index.js';
import { testEngineOptions } from '../../support/engine-options.js';
import { idCounts, writeNumbered } from './numbered-docs.js';

const INDEX = 'logs';

const ids = (engine: Engine) => idCounts(engine, INDEX);
const write = (engine: Engine, from: number, to: number, deletes: string[] = []) => writeNumbered(engine, INDEX, from, to, deletes);

const refused = (o: WriteOutcome) => !o.ok && o.error.status === 503 && o.error.type === 'unavailable_shards_exception';

describe('an index handed over to another engine while both run', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-handover-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('the owner takes no write after it let go; the other opens everything it acknowledged from the catalog, once', async () => {
    const metastore = await openMetastore({ kind: 'sqlite', path: path.join(root, 'metastore.sqlite') });
    const shared = { segmentStore: new LocalObjectStore(path.join(root, 'objects')) };
    const onOwner = new Set([INDEX]);
    const owner = await Engine.open(testEngineOptions(path.join(root, 'owner'), metastore, { ...shared, holds: (i) => onOwner.has(i) }));
    await owner.ensureIndex(INDEX);
    assert.ok((await write(owner, 0, 100)).every((o) => o.ok));
    await owner.flush([INDEX]);
    assert.ok((await write(owner, 100, 200, ['d3', 'd150'])).every((o) => o.ok));

    // a write taken before the handover ends before the index is let go; one after it is refused
    const taken = write(owner, 200, 210);
    // a few turns of the microtask queue: the write has its lids and waits for the log's fsync
    for (let i = 0; i < 5; i++) await null;
    const handover = owner.handOver(INDEX);
    const late = await write(owner, 210, 220);
    assert.ok(late.every(refused), JSON.stringify(late.find((o) => !refused(o))));
    assert.ok((await taken).every((o) => o.ok));
    await handover;
    assert.deepEqual(owner.indexNames(), []);
    onOwner.delete(INDEX);
    assert.ok((await write(owner, 220, 230)).every(refused), 'a write reaching the old owner later is refused too');
    await owner.openIndexes([INDEX]);
    assert.deepEqual(owner.indexNames(), [], 'nor is the index opened again there');
    assert.throws(() => owner.requireShard(INDEX), (err: { status: number }) => err.status === 503, 'a read that reaches it is sent on');

    const next = await Engine.open(testEngineOptions(path.join(root, 'next'), metastore, { ...shared, holds: () => true }));
    const held = ids(next);
    assert.equal(held.size, 208);
    assert.ok([...held.values()].every((n) => n === 1));
    assert.ok(!held.has('d3') && !held.has('d150') && held.has('d209') && !held.has('d210'));
    // writes go on after the old owner's lids and replace its documents
    assert.ok((await write(next, 205, 215)).every((o) => o.ok));
    const afterWrites = ids(next);
    assert.equal(afterWrites.size, 213);
    assert.ok([...afterWrites.values()].every((n) => n === 1));

    await next.close();
    await owner.close();
    await metastore.close();
  });

  it('a handover whose commits are refused leaves the index with its owner, which takes writes again', async () => {
    const metastore = await openMetastore({ kind: 'sqlite', path: path.join(root, 'metastore-2.sqlite') });
    let mayCommit = true;
    const owner = await Engine.open(
      testEngineOptions(path.join(root, 'owner-2'), metastore, { catalog: fencedCatalog(metastoreCatalog(metastore), () => mayCommit), holds: () => true }),
    );
    assert.ok((await write(owner, 0, 50)).every((o) => o.ok));
    mayCommit = false;
    await assert.rejects(owner.handOver(INDEX), (err: { status: number }) => err.status === 503);
    mayCommit = true;
    await owner.takeBack(INDEX);
    assert.deepEqual(owner.indexNames(), [INDEX]);
    assert.ok((await write(owner, 50, 60)).every((o) => o.ok));
    assert.equal(ids(owner).size, 60);
    await owner.close();
    await metastore.close();
  });
});
