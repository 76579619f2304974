/**
 * An index opened by another engine after its owner died: committed segments come from the
 * catalog and the object store, the writes the dead owner acknowledged but had not flushed from
 * its write-ahead log (a shared volume), logged again in the new owner's own log.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Engine } from '../../../src/engine/index.js';
import { openMetastore } from '../../../src/metastore/index.js';
import { LocalObjectStore } from '../../../src/storage/index.js';
import { testEngineOptions } from '../../support/engine-options.js';
import { idCounts, writeNumbered } from './numbered-docs.js';

const INDEX = 'logs';

const ids = (engine: Engine) => idCounts(engine, INDEX);

async function write(engine: Engine, from: number, to: number, deletes: string[] = []): Promise<void> {
  const outcomes = await writeNumbered(engine, INDEX, from, to, deletes);
  assert.ok(outcomes.every((o) => o.ok));
}

describe('an index moved to another engine', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-moved-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('holds what the dead owner flushed and what only its log held, each once, and logs it again', async () => {
    const metastore = await openMetastore({ kind: 'sqlite', path: path.join(root, 'metastore.sqlite') });
    const shared = { segmentStore: new LocalObjectStore(path.join(root, 'objects')) };
    const owner = await Engine.open(testEngineOptions(path.join(root, 'owner'), metastore, { ...shared, walDir: path.join(root, 'wal', 'owner') }));
    await write(owner, 0, 100);
    await owner.flush([INDEX]);
    await write(owner, 100, 250, ['d3', 'd120']);
    // the owner dies: its log as it is now, on the shared volume
    fs.cpSync(path.join(root, 'wal', 'owner'), path.join(root, 'wal', 'dead'), { recursive: true });

    const placedOnNext = new Set<string>();
    const next = await Engine.open(
      testEngineOptions(path.join(root, 'next'), metastore, {
        ...shared,
        walDir: path.join(root, 'wal', 'next'),
        holds: (index) => placedOnNext.has(index),
        foreignWalDirs: async () => [path.join(root, 'wal', 'dead')],
      }),
    );
    assert.deepEqual(next.indexNames(), [], 'an index not placed here is not opened at start');
    await next.openIndexes([INDEX]);
    assert.deepEqual(next.indexNames(), [], 'nor when asked to, until it is placed here');
    placedOnNext.add(INDEX).add('not-in-the-catalog');
    await next.openIndexes([INDEX, 'not-in-the-catalog']);
    assert.deepEqual(next.indexNames(), [INDEX]);
    const held = ids(next);
    assert.equal(held.size, 248);
    assert.ok([...held.values()].every((n) => n === 1));
    assert.ok(!held.has('d3') && !held.has('d120') && held.has('d249'));
    // writes go on after the dead owner's lids, and replace its documents
    await write(next, 249, 260);
    assert.equal(ids(next).size, 258);
    assert.equal(ids(next).get('d249'), 1);

    // the moved writes are in the new owner's log: a crash of the new owner loses none
    fs.cpSync(path.join(root, 'wal', 'next'), path.join(root, 'wal', 'next-image'), { recursive: true });
    const third = await Engine.open(testEngineOptions(path.join(root, 'third'), metastore, { ...shared, walDir: path.join(root, 'wal', 'next-image') }));
    const after = ids(third);
    assert.equal(after.size, 258);
    assert.ok([...after.values()].every((n) => n === 1));

    await third.close();
    await next.close();
    await owner.close();
    await metastore.close();
  });
});
