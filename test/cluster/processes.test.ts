/**
 * Separate `svc serve` processes on loopback sharing one real PostgreSQL metastore: one runs the
 * coordinator and api roles, one the cache and storage roles. Both appear in `_cat/nodes` with
 * their roles; the first holds the coordinator lease and places a new index on the cache node.
 * After the coordinator process is killed with SIGKILL, a second coordinator takes the lease
 * over once it has expired. Internal routes refuse a request without the cluster secret. Once
 * the cache node is killed too, requests about its index fail at once, saying why: without a
 * shared log volume its indexes do not move.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exited, request } from '../support/node.js';
import { clusterOnPostgres, until } from './support/processes.js';

const SECRET = 'the-secret-of-this-test-cluster';
const WITH_SECRET = { headers: { 'x-svc-cluster-secret': SECRET } };

interface InternalCluster {
  nodes: Array<{ id: string; roles: string[]; live: boolean }>;
  coordinator: { holder: string; epoch: number; live: boolean } | null;
  placements: Array<{ index: string; node_id: string; lease_epoch: number }>;
}
type CatNode = Record<'id' | 'name' | 'svc.roles' | 'node.role' | 'master', string>;

const { processes, metastore } = clusterOnPostgres();

const start = (id: string, roles: string, metastoreUrl: string) =>
  processes.start(
    id,
    { SVC_ROLES: roles, SVC_METASTORE_URL: metastoreUrl, SVC_CLUSTER_SECRET: SECRET, SVC_HEARTBEAT_INTERVAL_SECONDS: '0.2', SVC_LEASE_SECONDS: '1.5' },
    false,
  );

const internal = async (url: string) => (await request<InternalCluster>(`${url}/_internal/cluster`, WITH_SECRET)).body;
const catNodes = async (url: string) =>
  (await request<CatNode[]>(`${url}/_cat/nodes?format=json&full_id=true&h=id,name,svc.roles,node.role,master`)).body.sort((a, b) => a.id.localeCompare(b.id));

test('two processes share the membership; a killed coordinator is replaced once its lease expires', async (t) => {
  const metastoreUrl = await metastore(t);
  if (metastoreUrl === undefined) return;
  const coordinator = await start('coord-1', 'coordinator,api', metastoreUrl);
  const cache = await start('cache-1', 'cache,storage', metastoreUrl);

  const listed = await until('both nodes in _cat/nodes', async () => {
    const nodes = await catNodes(coordinator.url);
    return nodes.length === 2 ? nodes : undefined;
  });
  assert.deepEqual(listed, [
    { id: 'cache-1', name: 'cache-1', 'svc.roles': 'cache,storage', 'node.role': 'd', master: '-' },
    { id: 'coord-1', name: 'coord-1', 'svc.roles': 'api,coordinator', 'node.role': 'm', master: '*' },
  ]);
  const health = (await request<Record<string, unknown>>(`${coordinator.url}/_cluster/health`)).body;
  assert.equal(health.number_of_nodes, 2);
  assert.equal(health.number_of_data_nodes, 1);
  const state = (await request<{ master_node: string; nodes: Record<string, { name: string; attributes: Record<string, string> }> }>(`${coordinator.url}/_cluster/state/master_node,nodes`)).body;
  assert.equal(state.master_node, 'coord-1');
  assert.deepEqual(Object.keys(state.nodes).sort(), ['cache-1', 'coord-1']);
  assert.equal(state.nodes['cache-1']!.attributes['svc.roles'], 'cache,storage');

  // the process without the api role serves no Elasticsearch API, and its internal routes want the secret
  assert.equal((await request(`${cache.url}/_search`)).status, 400);
  const refused = await request<{ error: { type: string }; status: number }>(`${cache.url}/_internal/node`);
  assert.equal(refused.status, 401);
  assert.equal(refused.body.error.type, 'security_exception');
  assert.equal((await request(`${cache.url}/_internal/node`, { headers: { 'x-svc-cluster-secret': 'not-the-secret-of-this-cluster' } })).status, 403);
  assert.equal((await request<{ id: string }>(`${cache.url}/_internal/node`, WITH_SECRET)).body.id, 'cache-1');

  // the coordinator places a new index on the only cache node
  assert.equal((await request(`${coordinator.url}/logs`, { method: 'PUT', body: {} })).status, 200);
  const placed = await until('the placement of logs', async () => {
    const p = (await internal(cache.url)).placements;
    return p.length > 0 ? p : undefined;
  });
  assert.deepEqual(placed.map((p) => [p.index, p.node_id, p.lease_epoch]), [['logs', 'cache-1', 1]]);

  coordinator.child.kill('SIGKILL');
  await exited(coordinator.child);
  const before = await internal(cache.url);
  assert.equal(before.coordinator?.holder, 'coord-1', 'nobody else could take the lease');

  const second = await start('coord-2', 'coordinator,api', metastoreUrl);
  const taken = await until('the lease taken over by coord-2', async () => {
    const c = (await internal(cache.url)).coordinator;
    return c?.holder === 'coord-2' && c.live ? c : undefined;
  });
  assert.equal(taken.epoch, 2);
  const after = await until('coord-1 dead', async () => {
    const view = await internal(cache.url);
    return view.nodes.find((n) => n.id === 'coord-1')?.live === false ? view : undefined;
  });
  assert.deepEqual(after.nodes.map((n) => [n.id, n.live]), [
    ['cache-1', true],
    ['coord-1', false],
    ['coord-2', true],
  ]);
  assert.deepEqual(
    (await catNodes(second.url)).map((n) => [n.id, n.master]),
    [
      ['cache-1', '-'],
      ['coord-2', '*'],
    ],
  );
  assert.equal((await request<{ master_node: string }>(`${second.url}/_cluster/state/master_node`)).body.master_node, 'coord-2');

  // without a shared log volume the indexes of a dead cache node stay where they are: requests
  // about them fail at once rather than wait for a move that cannot come
  cache.child.kill('SIGKILL');
  await exited(cache.child);
  await until('cache-1 dead', async () => ((await internal(second.url)).nodes.find((n) => n.id === 'cache-1')?.live === false ? true : undefined));
  const search = await request<{ error: { type: string; reason: string }; status: number }>(`${second.url}/logs/_search`);
  assert.equal(search.status, 503, JSON.stringify(search.body));
  assert.match(search.body.error.reason, /index \[logs\] is held by cache node \[cache-1\], which is not live; without SVC_SHARED_WAL_DIR/);
  const write = await request<{ errors: boolean; items: Array<{ index: { status: number; error: { reason: string } } }> }>(`${second.url}/_bulk`, {
    body: '{"index":{"_index":"logs","_id":"1"}}\n{"msg":"x"}\n',
    headers: { 'content-type': 'application/x-ndjson' },
  });
  assert.equal(write.body.items[0]!.index.status, 503);
  assert.match(write.body.items[0]!.index.error.reason, /without SVC_SHARED_WAL_DIR/);
});
