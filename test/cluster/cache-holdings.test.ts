/**
 * What a cache node of a cluster holds, read from the placements in a real metastore (SQLite):
 * requests about an index placed elsewhere are refused, and after a lapse of the node's lease
 * nothing is taken until the holdings were reconciled, which lets go of indexes moved away. A
 * live handover (with a real engine) happens only as the coordinator asked it, switches the
 * placement once the index is committed, and leaves the index with its owner when withdrawn.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CacheHoldings, COORDINATOR_LEASE } from '../../src/cluster/index.js';
import { Engine } from '../../src/engine/index.js';
import { openMetastore, type Metastore } from '../../src/metastore/index.js';
import { testEngineOptions } from '../support/engine-options.js';
import { tempDir } from '../support/node.js';

describe('cache holdings', () => {
  const dir = tempDir('svc-holdings-');
  let metastore: Metastore;
  before(async () => {
    metastore = await openMetastore({ kind: 'sqlite', path: path.join(dir, 'metastore.sqlite') });
    assert.equal((await metastore.leases.tryAcquire(COORDINATOR_LEASE, 'coord', 60_000)).held, true);
    await metastore.placements.applyAsLeaseHolder(COORDINATOR_LEASE, 'coord', {
      place: [
        { index: 'mine', nodeId: 'n1' },
        { index: 'theirs', nodeId: 'n2' },
      ],
      remove: [],
    });
  });
  after(async () => {
    await metastore.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses indexes placed elsewhere, and everything while the lease is out', async () => {
    const holdings = new CacheHoldings(metastore, 'n1', path.join(dir, 'wal'));
    assert.deepEqual(await holdings.refresh(), ['mine']);
    assert.equal(holdings.holds('mine'), true);
    assert.equal(holdings.placedElsewhere('theirs'), true);
    await holdings.assertHeld(['mine', 'not-placed-yet'], true);
    await assert.rejects(holdings.assertHeld(['mine', 'theirs'], true), (err: { status: number }) => err.status === 503);
    await assert.rejects(holdings.assertHeld(['mine'], false), (err: { status: number }) => err.status === 503);
    assert.equal(holdings.walDir(), path.join(dir, 'wal', 'n1'));
  });

  it('after a lapse, takes nothing until reconciled; reconciling lets go of what moved and opens what came', async () => {
    const holdings = new CacheHoldings(metastore, 'n1', undefined);
    await holdings.refresh();
    const member = { holdsNodeLease: true, leaseLapses: 0 };
    assert.equal(holdings.leaseIntact(member), true);
    member.leaseLapses = 1;
    assert.equal(holdings.leaseIntact(member), false);
    // meanwhile the coordinator moved `mine` away and placed `new` here
    await metastore.placements.applyAsLeaseHolder(COORDINATOR_LEASE, 'coord', {
      place: [{ index: 'new', nodeId: 'n1' }],
      remove: [],
      move: [{ index: 'mine', from: 'n1', nodeId: 'n3' }],
    });
    const dropped: string[] = [];
    const opened: string[] = [];
    const engine = {
      indexNames: () => ['mine'],
      dropIndex: async (name: string) => void dropped.push(name),
      openIndexes: async (names: readonly string[]) => void opened.push(...names),
      handOver: async () => undefined,
      takeBack: async () => undefined,
    };
    await holdings.reconcile(engine, member.leaseLapses);
    assert.deepEqual(dropped, ['mine']);
    assert.deepEqual(opened, ['new']);
    assert.equal(holdings.leaseIntact(member), true);
    assert.equal(holdings.walDir(), undefined, 'without a shared volume the log stays in the data directory');
    assert.deepEqual(await holdings.foreignWalDirs(), []);
  });

  it('hands an index over only as asked: the placement switches once it is committed; withdrawn, the index stays and takes writes', async () => {
    const beat = (id: string) => metastore.nodes.heartbeat({ id, name: id, roles: ['cache'], url: `http://${id}`, stats: {}, startedAtMs: 1, leaseMs: 60_000 });
    await Promise.all(['h1', 'h2'].map(beat));
    await metastore.placements.applyAsLeaseHolder(COORDINATOR_LEASE, 'coord', { place: ['ho-a', 'ho-b'].map((index) => ({ index, nodeId: 'h1' })), remove: [] });
    const holdings = new CacheHoldings(metastore, 'h1', undefined);
    await holdings.refresh();
    const engine = await Engine.open(testEngineOptions(path.join(dir, 'h1'), metastore, { holds: (index) => holdings.holds(index) }));
    const line = Buffer.from('{"msg":"one"}');
    for (const index of ['ho-a', 'ho-b']) assert.ok((await engine.write(line, [{ index, start: 0, end: line.length, id: '1' }]))[0]!.ok);

    const move = { index: 'ho-a', from: 'h1', to: 'h2' };
    await assert.rejects(holdings.handOver(engine, 'ho-a', 'h2', true), (err: { status: number }) => err.status === 503, 'not asked');
    assert.equal(await metastore.placements.requestMove(COORDINATOR_LEASE, 'coord', move), true);
    await assert.rejects(holdings.handOver(engine, 'ho-a', 'h2', false), (err: { status: number }) => err.status === 503, 'not while the lease is out');
    await holdings.handOver(engine, 'ho-a', 'h2', true);
    assert.equal((await metastore.placements.listPlacements()).find((p) => p.index === 'ho-a')?.nodeId, 'h2');
    assert.deepEqual(engine.indexNames(), ['ho-b']);
    assert.equal((await metastore.segments.listSegments('ho-a')).length, 1, 'its memtable is committed');
    await assert.rejects(holdings.assertHeld(['ho-a'], true), (err: { status: number }) => err.status === 503);
    await holdings.handOver(engine, 'ho-a', 'h2', true);

    // withdrawn while the owner commits: the switch finds no move, the index is opened again here
    const b = { index: 'ho-b', from: 'h1', to: 'h2' };
    assert.equal(await metastore.placements.requestMove(COORDINATOR_LEASE, 'coord', b), true);
    const handover = holdings.handOver(engine, 'ho-b', 'h2', true);
    assert.equal(await metastore.placements.cancelMove(COORDINATOR_LEASE, 'coord', b), true);
    await assert.rejects(handover, (err: { status: number }) => err.status === 503);
    assert.deepEqual(engine.indexNames(), ['ho-b']);
    assert.equal((await metastore.placements.listPlacements()).find((p) => p.index === 'ho-b')?.nodeId, 'h1');
    await holdings.assertHeld(['ho-b'], true);
    assert.ok((await engine.write(line, [{ index: 'ho-b', start: 0, end: line.length, id: '2' }]))[0]!.ok);
    await engine.close();
  });
});
