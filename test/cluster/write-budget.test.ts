import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClusterWriteBudget, UNFLUSHED_BYTES_STAT } from '../../src/cluster/index.js';
import type { NodeRecord } from '../../src/metastore/index.js';

function node(id: string, roles: string[], unflushed?: unknown): NodeRecord {
  return {
    id,
    name: id,
    roles,
    url: `http://${id}`,
    stats: unflushed === undefined ? {} : { [UNFLUSHED_BYTES_STAT]: unflushed as number },
    startedAtMs: 0,
    heartbeatAtMs: 0,
    leaseExpiresAtMs: 0,
    live: true,
    draining: false,
  };
}

test('the write budget sums the other cache nodes as reported and this node as it is now', () => {
  const budget = new ClusterWriteBudget('cache-1');
  assert.equal(budget.pendingBytes(), 0);
  budget.observe([
    node('cache-1', ['cache'], 1_000_000),
    node('cache-2', ['cache'], 300),
    node('cache-3', ['cache', 'storage'], 200),
    // not a cache node, or a figure that is not a byte count: not counted
    node('api-1', ['api'], 5_000),
    node('cache-4', ['cache'], 'lots'),
    node('cache-5', ['cache'], -10),
    node('cache-6', ['cache']),
  ]);
  assert.equal(budget.pendingBytes(), 500, 'its own reported figure is not counted');
  assert.equal(budget.pendingBytes(40), 540);
  budget.countOwn(() => 7);
  assert.equal(budget.pendingBytes(), 507);
  // a node that is no longer live drops out at the next read
  budget.observe([node('cache-2', ['cache'], 300)]);
  assert.equal(budget.pendingBytes(), 307);
});
