/**
 * The internal routes on a real node: the cluster secret in its header opens them, a missing one
 * gets 401 and a wrong one 403 in the Elasticsearch error shape, whatever RBAC says; without a
 * secret configured they are open only in the one-process deployment without RBAC.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkClusterSecret } from '../../src/auth/index.js';
import { request, startTestNode, type TestNode } from '../support/node.js';

const SECRET = 'a-cluster-secret-of-some-length';
type ErrorBody = { error: { type: string; reason: string; root_cause: unknown[] }; status: number };

describe('internal routes with a cluster secret', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ SVC_CLUSTER_SECRET: SECRET, SVC_NODE_ID: 'secret-node', SVC_NODE_NAME: 'secret-node-name', SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: 'bootstrap-key-for-this-test' });
  });
  after(() => node.destroy());

  it('no secret: 401; a wrong one: 403; both in the Elasticsearch error shape', async () => {
    const missing = await request<ErrorBody>(`${node.url}/_internal/node`);
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.type, 'security_exception');
    assert.equal(missing.body.status, 401);
    assert.ok(Array.isArray(missing.body.error.root_cause));
    assert.match(missing.body.error.reason, /x-svc-cluster-secret/);
    const wrong = await request<ErrorBody>(`${node.url}/_internal/cluster`, { headers: { 'x-svc-cluster-secret': `${SECRET}x` } });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.error.type, 'security_exception');
  });

  it('a user credential does not open them, even the bootstrap key', async () => {
    const res = await request<ErrorBody>(`${node.url}/_internal/node`, { headers: { authorization: 'Bearer bootstrap-key-for-this-test' } });
    assert.equal(res.status, 401);
  });

  it('the secret opens them without any user credential, RBAC on', async () => {
    const res = await request<Record<string, unknown>>(`${node.url}/_internal/node`, { headers: { 'x-svc-cluster-secret': SECRET } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { id: 'secret-node', name: 'secret-node-name', cluster_name: 'svc', roles: ['api', 'cache', 'storage', 'coordinator'], url: node.url });
    const cluster = await request<{ nodes: Array<{ id: string; live: boolean }>; coordinator: { holder: string; live: boolean } }>(`${node.url}/_internal/cluster`, {
      headers: { 'x-svc-cluster-secret': SECRET },
    });
    assert.equal(cluster.status, 200);
    assert.deepEqual(cluster.body.nodes.map((n) => [n.id, n.live]), [['secret-node', true]]);
    assert.equal(cluster.body.coordinator.holder, 'secret-node');
    assert.equal(cluster.body.coordinator.live, true);
  });
});

describe('internal routes without a cluster secret', () => {
  it('one process with every role and RBAC off: open, as the rest of the API; it places new indexes on itself', async () => {
    const node = await startTestNode({ SVC_NODE_ID: 'solo', SVC_HEARTBEAT_INTERVAL_SECONDS: '0.1', SVC_LEASE_SECONDS: '5' });
    try {
      assert.equal((await request(`${node.url}/logs`, { method: 'PUT', body: {} })).status, 200);
      let placements: Array<{ index: string; node_id: string }> = [];
      for (let i = 0; i < 100 && placements.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        placements = (await request<{ placements: typeof placements }>(`${node.url}/_internal/cluster`)).body.placements;
      }
      assert.deepEqual(placements.map((p) => [p.index, p.node_id]), [['logs', 'solo']]);
    } finally {
      await node.destroy();
    }
  });

  it('otherwise refused: with RBAC on, or when the process runs only some roles', () => {
    assert.equal(checkClusterSecret({ secret: undefined, openWithoutSecret: true }, undefined).allowed, true);
    const refused = checkClusterSecret({ secret: undefined, openWithoutSecret: false }, 'anything');
    assert.deepEqual(refused, { allowed: false, status: 403, reason: 'internal routes are refused: SVC_CLUSTER_SECRET is not configured' });
  });
});
