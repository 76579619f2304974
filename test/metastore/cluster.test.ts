/**
 * Cluster membership in the metastore, on SQLite and a real PostgreSQL: the coordinator lease
 * (acquire, renew, refusal while held, takeover after expiry, release), node heartbeats and
 * their expiry, and placements written only by the lease holder. Two contenders are two
 * separate connections to the same database, as two processes would be.
 */
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { openMetastore, type Metastore, type MetastoreConfig } from '../../src/metastore/index.js';
import { eachDialect } from './dialects.js';

const LEASE = 'coordinator';
const LONG_MS = 60_000;
/** short enough to wait out in a test; the takeover is checked only after it has surely passed */
const SHORT_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withSecond<T>(config: MetastoreConfig, body: (other: Metastore) => Promise<T>): Promise<T> {
  const other = await openMetastore(config);
  try {
    return await body(other);
  } finally {
    await other.close();
  }
}

eachDialect((it) => {
  describe('coordinator lease', { concurrency: 4 }, () => {
    it('the first contender acquires it; the other is refused while it is live, and told who holds it', async (ms, config) => {
      const first = await ms.leases.tryAcquire(LEASE, 'node-a', LONG_MS);
      assert.equal(first.held, true);
      assert.equal(first.lease.holder, 'node-a');
      assert.equal(first.lease.epoch, 1);
      assert.equal(first.lease.live, true);
      await withSecond(config, async (other) => {
        const second = await other.leases.tryAcquire(LEASE, 'node-b', LONG_MS);
        assert.equal(second.held, false);
        assert.equal(second.lease.holder, 'node-a');
        assert.equal(second.lease.epoch, 1);
      });
    });

    it('of contenders racing for a free lease exactly one wins', async (ms, config) => {
      await withSecond(config, async (other) => {
        const attempts = await Promise.all([
          ms.leases.tryAcquire(LEASE, 'node-a', LONG_MS),
          other.leases.tryAcquire(LEASE, 'node-b', LONG_MS),
          ms.leases.tryAcquire(LEASE, 'node-c', LONG_MS),
          other.leases.tryAcquire(LEASE, 'node-d', LONG_MS),
        ]);
        const winners = attempts.filter((a) => a.held);
        assert.equal(winners.length, 1);
        const holder = winners[0]!.lease.holder;
        for (const a of attempts) assert.equal(a.lease.holder, holder);
        assert.equal((await ms.leases.get(LEASE))?.holder, holder);
      });
    });

    it('the holder renews it: the expiry moves forward and the epoch stays', async (ms) => {
      const first = await ms.leases.tryAcquire(LEASE, 'node-a', LONG_MS);
      await sleep(20);
      const renewed = await ms.leases.tryAcquire(LEASE, 'node-a', LONG_MS);
      assert.equal(renewed.held, true);
      assert.equal(renewed.lease.epoch, first.lease.epoch);
      assert.equal(renewed.lease.acquiredAtMs, first.lease.acquiredAtMs);
      assert.ok(renewed.lease.expiresAtMs > first.lease.expiresAtMs, `${renewed.lease.expiresAtMs} > ${first.lease.expiresAtMs}`);
    });

    it('once it expires another node takes it over, with a new epoch, and the old holder cannot renew it', async (ms, config) => {
      let firstEpoch = 0;
      await withSecond(config, async (other) => {
        // the second connection is open before the short lease starts: its clock runs from here
        const first = await ms.leases.tryAcquire(LEASE, 'node-a', SHORT_MS);
        assert.equal(first.held, true);
        firstEpoch = first.lease.epoch;
        assert.equal((await other.leases.tryAcquire(LEASE, 'node-b', LONG_MS)).held, false);
        await sleep(SHORT_MS + 200);
        assert.equal((await other.leases.get(LEASE))?.live, false);
        const taken = await other.leases.tryAcquire(LEASE, 'node-b', LONG_MS);
        assert.equal(taken.held, true);
        assert.equal(taken.lease.holder, 'node-b');
        assert.equal(taken.lease.epoch, firstEpoch + 1);
      });
      const late = await ms.leases.tryAcquire(LEASE, 'node-a', LONG_MS);
      assert.equal(late.held, false);
      assert.equal(late.lease.holder, 'node-b');
    });

    it('a released lease is taken over at once; a release by a non-holder changes nothing', async (ms) => {
      await ms.leases.tryAcquire(LEASE, 'node-a', LONG_MS);
      await ms.leases.release(LEASE, 'node-b');
      assert.equal((await ms.leases.tryAcquire(LEASE, 'node-b', LONG_MS)).held, false);
      await ms.leases.release(LEASE, 'node-a');
      const taken = await ms.leases.tryAcquire(LEASE, 'node-b', LONG_MS);
      assert.equal(taken.held, true);
      assert.equal(taken.lease.epoch, 2);
    });
  });

  describe('nodes', { concurrency: 4 }, () => {
    it('a heartbeat registers the node with its roles; a renewed one updates it; a node whose lease expired is dead', async (ms) => {
      const beat = (id: string, roles: string[], leaseMs: number, url = `http://127.0.0.1:1/${id}`) =>
        ms.nodes.heartbeat({ id, name: `name-${id}`, roles, url, stats: { pid: 1 }, startedAtMs: 1_700_000_000_000, leaseMs });
      await beat('a', ['api', 'coordinator'], LONG_MS);
      await beat('b', ['cache', 'storage'], SHORT_MS);
      let nodes = await ms.nodes.listNodes();
      assert.deepEqual(
        nodes.map((n) => [n.id, n.name, n.roles, n.live]),
        [
          ['a', 'name-a', ['api', 'coordinator'], true],
          ['b', 'name-b', ['cache', 'storage'], true],
        ],
      );
      assert.deepEqual(nodes[0]!.stats, { pid: 1 });
      await beat('a', ['api'], LONG_MS, 'http://127.0.0.1:2');
      await sleep(SHORT_MS + 200);
      nodes = await ms.nodes.listNodes();
      assert.deepEqual(nodes.map((n) => [n.id, n.roles, n.url, n.live]), [
        ['a', ['api'], 'http://127.0.0.1:2', true],
        ['b', ['cache', 'storage'], 'http://127.0.0.1:1/b', false],
      ]);
      assert.deepEqual((await ms.nodes.liveNodes()).map((n) => n.id), ['a']);
      await beat('b', ['cache', 'storage'], LONG_MS);
      await ms.nodes.leave('a');
      assert.deepEqual((await ms.nodes.liveNodes()).map((n) => n.id), ['b']);
    });
  });

  describe('placements', { concurrency: 4 }, () => {
    it('only the live lease holder writes them; an index placed already keeps its node', async (ms, config) => {
      const change = { place: [{ index: 'logs', nodeId: 'cache-1' }], remove: [] };
      assert.equal(await ms.placements.applyAsLeaseHolder(LEASE, 'node-a', change), false, 'no lease yet');
      await ms.leases.tryAcquire(LEASE, 'node-a', SHORT_MS);
      assert.equal(await ms.placements.applyAsLeaseHolder(LEASE, 'node-b', change), false, 'not the holder');
      assert.equal(await ms.placements.applyAsLeaseHolder(LEASE, 'node-a', change), true);
      assert.equal(await ms.placements.applyAsLeaseHolder(LEASE, 'node-a', { place: [{ index: 'logs', nodeId: 'cache-2' }, { index: 'metrics', nodeId: 'cache-2' }], remove: [] }), true);
      assert.deepEqual((await ms.placements.listPlacements()).map((p) => [p.index, p.nodeId, p.leaseEpoch]), [
        ['logs', 'cache-1', 1],
        ['metrics', 'cache-2', 1],
      ]);
      await sleep(SHORT_MS + 200);
      assert.equal(await ms.placements.applyAsLeaseHolder(LEASE, 'node-a', { place: [], remove: ['logs'] }), false, 'the lease expired');
      await withSecond(config, async (other) => {
        await other.leases.tryAcquire(LEASE, 'node-b', LONG_MS);
        assert.equal(await other.placements.applyAsLeaseHolder(LEASE, 'node-b', { place: [{ index: 'traces', nodeId: 'cache-1' }], remove: ['logs'] }), true);
      });
      assert.deepEqual((await ms.placements.listPlacements()).map((p) => [p.index, p.nodeId, p.leaseEpoch]), [
        ['metrics', 'cache-2', 1],
        ['traces', 'cache-1', 2],
      ]);
    });

    it('moves an index only from a node whose lease expired, and only from the node it names', async (ms) => {
      assert.equal((await ms.leases.tryAcquire(LEASE, 'node-a', LONG_MS)).held, true);
      const beat = (id: string, leaseMs: number) => ms.nodes.heartbeat({ id, name: id, roles: ['cache'], url: `http://${id}`, stats: {}, startedAtMs: 1, leaseMs });
      await beat('cache-live', LONG_MS);
      await beat('cache-dead', 1);
      await sleep(20);
      await ms.placements.applyAsLeaseHolder(LEASE, 'node-a', {
        place: [
          { index: 'on-dead', nodeId: 'cache-dead' },
          { index: 'on-live', nodeId: 'cache-live' },
          { index: 'elsewhere', nodeId: 'cache-live' },
        ],
        remove: [],
      });
      const moved = await ms.placements.applyAsLeaseHolder(LEASE, 'node-a', {
        place: [],
        remove: [],
        move: [
          { index: 'on-dead', from: 'cache-dead', nodeId: 'cache-new' },
          { index: 'on-live', from: 'cache-live', nodeId: 'cache-new' },
          { index: 'elsewhere', from: 'cache-dead', nodeId: 'cache-new' },
        ],
      });
      assert.equal(moved, true);
      assert.deepEqual((await ms.placements.listPlacements()).map((p) => [p.index, p.nodeId]), [
        ['elsewhere', 'cache-live'],
        ['on-dead', 'cache-new'],
        ['on-live', 'cache-live'],
      ]);
    });

    it('a live move: asked by the lease holder, completed by the owner only as asked and while both nodes are live; withdrawn, it stays', async (ms) => {
      assert.equal((await ms.leases.tryAcquire(LEASE, 'node-a', LONG_MS)).held, true);
      const beat = (id: string, leaseMs: number, draining = false) =>
        ms.nodes.heartbeat({ id, name: id, roles: ['cache'], url: `http://${id}`, stats: {}, startedAtMs: 1, leaseMs, draining });
      for (const id of ['c1', 'c2']) await beat(id, LONG_MS);
      await beat('gone', 1);
      await ms.placements.applyAsLeaseHolder(LEASE, 'node-a', { place: ['x', 'y', 'z'].map((index) => ({ index, nodeId: 'c1' })), remove: [] });
      await sleep(20);
      const move = { index: 'x', from: 'c1', to: 'c2' };
      assert.equal(await ms.placements.completeMove(move), false, 'not asked');
      assert.equal(await ms.placements.requestMove(LEASE, 'node-b', move), false, 'not the lease holder');
      assert.equal(await ms.placements.requestMove(LEASE, 'node-a', { ...move, from: 'c2' }), false, 'not on that node');
      assert.equal(await ms.placements.requestMove(LEASE, 'node-a', move), true);
      assert.equal(await ms.placements.requestMove(LEASE, 'node-a', { ...move, to: 'c3' }), false, 'one move of an index at a time');
      assert.equal((await ms.placements.listPlacements()).find((p) => p.index === 'x')?.movingTo, 'c2');
      assert.equal(await ms.placements.completeMove({ ...move, to: 'c3' }), false, 'not the move asked');
      assert.equal(await ms.placements.completeMove(move), true);
      const x = (await ms.placements.listPlacements()).find((p) => p.index === 'x')!;
      assert.deepEqual([x.nodeId, x.movingTo], ['c2', undefined]);
      assert.equal(await ms.placements.cancelMove(LEASE, 'node-a', move), false, 'a completed move is not withdrawn');

      // withdrawn before the owner completes it: the owner keeps the index
      const y = { index: 'y', from: 'c1', to: 'c2' };
      assert.equal(await ms.placements.requestMove(LEASE, 'node-a', y), true);
      assert.equal(await ms.placements.cancelMove(LEASE, 'node-a', y), true);
      assert.equal(await ms.placements.completeMove(y), false);
      // to a node that is not live, or drains: not completed
      const z = { index: 'z', from: 'c1', to: 'gone' };
      assert.equal(await ms.placements.requestMove(LEASE, 'node-a', z), true);
      assert.equal(await ms.placements.completeMove(z), false);
      await ms.placements.cancelMove(LEASE, 'node-a', z);
      await beat('c2', LONG_MS, true);
      assert.equal((await ms.nodes.liveNodes()).find((n) => n.id === 'c2')?.draining, true);
      assert.equal(await ms.placements.requestMove(LEASE, 'node-a', y), true);
      assert.equal(await ms.placements.completeMove(y), false);
      assert.deepEqual(
        (await ms.placements.listPlacements()).map((p) => [p.index, p.nodeId]),
        [
          ['x', 'c2'],
          ['y', 'c1'],
          ['z', 'c1'],
        ],
      );
      await ms.nodes.setDraining('c2', false);
      assert.equal((await ms.nodes.liveNodes()).find((n) => n.id === 'c2')?.draining, false);
    });
  });
});
