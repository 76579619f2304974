/**
 * The SQLite catalog writes on a thread of its own: a commit that waits for the database (a slow
 * disk's fsync, another process's lock) does not stop the event loop, and reads answer meanwhile.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openMetastore } from '../../src/metastore/index.js';

const SEGMENT = { id: 's1', level: 0, path: 'a/s1.seg', numDocs: 3, minTs: 1, maxTs: 2, maxLid: 2, sizeBytes: 100, createdAtMs: 1 };

test('a catalog commit that waits for the database leaves the event loop turning, and reads answer meanwhile', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-metastore-thread-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'metastore.sqlite');
  const ms = await openMetastore({ kind: 'sqlite', path });
  t.after(() => ms.close());
  await ms.indexes.createIndex({ name: 'a', uuid: 'u', createdAtMs: 1, settings: {}, mappings: {} });

  // another connection holds the write lock: the commit below waits for it (busy_timeout)
  const holder = new Database(path);
  holder.exec('begin immediate');
  let settled = false;
  const commit = ms.segments.addSegments('a', [SEGMENT]).finally(() => (settled = true));
  try {
    // timers fire while the commit waits: on the main thread they would wait for the lock
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(settled, false, 'the commit waits for the lock');
    assert.deepEqual(await ms.segments.listSegments('a'), [], 'a read answers, from the last commit');
    assert.equal((await ms.indexes.getIndex('a'))?.name, 'a');
  } finally {
    holder.exec('commit');
    holder.close();
  }
  await commit;
  assert.deepEqual(
    (await ms.segments.listSegments('a')).map((s) => s.id),
    ['s1'],
    'the commit is seen by reads once it resolved',
  );
});

test('a transaction that fails leaves the catalog writable: its rollback releases the writer', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-metastore-thread-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const ms = await openMetastore({ kind: 'sqlite', path: join(dir, 'metastore.sqlite') });
  t.after(() => ms.close());
  await ms.indexes.createIndex({ name: 'a', uuid: 'u', createdAtMs: 1, settings: {}, mappings: {} });
  await ms.segments.addSegments('a', [SEGMENT]);
  // the same id again: the insert fails inside the transaction, after the generation was bumped
  await assert.rejects(ms.segments.addSegments('a', [SEGMENT]), { name: 'ResourceExistsError' });
  await Promise.all([ms.segments.addSegments('a', [{ ...SEGMENT, id: 's2' }]), ms.segments.addSegments('a', [{ ...SEGMENT, id: 's3' }])]);
  assert.deepEqual((await ms.segments.listSegments('a')).map((s) => s.id).sort(), ['s1', 's2', 's3']);
});
