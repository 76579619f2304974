/**
 * What a cache node of a cluster holds, read from the placements in a real metastore (SQLite):
 * requests about an index placed elsewhere are refused, and after a lapse of the node's lease
 * nothing is taken until the holdings were reconciled, which lets go of indexes moved away.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CacheHoldings, COORDINATOR_LEASE } from '../../src/cluster/index.js';
import { openMetastore, type Metastore } from '../../src/metastore/index.js';
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
});
