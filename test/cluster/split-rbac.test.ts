/**
 * Access control in a split cluster: the api process authenticates and checks what it answers
 * itself (bulk items, searches), and the cache node checks what the api process sends it whole
 * with the caller's credential (listings over several indexes: their share of each node
 * holding some); the statuses and answers are those of one process with the same roles and keys.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ndjson, request } from '../support/node.js';
import { clusterOnPostgres } from './support/processes.js';

const SECRET = 'the-secret-of-this-test-cluster';
const BOOTSTRAP = 'bootstrap-key-of-this-test-cluster';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
/** what each layout makes on its own: timings, uuids, creation and license dates, sizes */
const OWN_TO_LAYOUT = new Set(['took', 'index_uuid', 'uuid', 'uid', 'size_in_bytes', 'creation_date', 'issue_date', 'issue_date_in_millis']);

const { processes, metastore } = clusterOnPostgres();

const start = (id: string, env: Record<string, string>) => processes.start(id, { SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: BOOTSTRAP, ...env });

/** Roles, keys and documents, then what each key gets: the same calls on either layout. */
async function scenario(url: string): Promise<unknown[]> {
  const writer = { name: 'writer', database: [], indexes: [{ names: ['logs-*'], permissions: ['read', 'write'] }] };
  const reader = { name: 'reader', database: [], indexes: [{ names: ['logs-a'], permissions: ['read'] }] };
  const watcher = { name: 'watcher', database: [], indexes: [] };
  for (const role of [writer, reader, watcher]) assert.equal((await request(`${url}/v1/roles`, { body: role, headers: bearer(BOOTSTRAP) })).status, 200);
  const key = async (role: string) => (await request<{ api_key: string }>(`${url}/v1/api_keys`, { body: { name: role, role }, headers: bearer(BOOTSTRAP) })).body.api_key;
  const keys = { writer: await key('writer'), reader: await key('reader'), watcher: await key('watcher') };
  const out: unknown[] = [];
  const call = async (who: keyof typeof keys | 'nobody', path: string, init: { method?: string; body?: string | object; headers?: Record<string, string> } = {}) => {
    const res = await request(`${url}${path}`, { ...init, headers: { ...init.headers, ...(who === 'nobody' ? {} : bearer(keys[who])) } });
    const body = JSON.parse(JSON.stringify(res.body ?? null, (k, v: unknown) => (OWN_TO_LAYOUT.has(k) ? undefined : v))) as unknown;
    out.push({ who, path, status: res.status, body });
  };
  const lines = ndjson([
    { index: { _index: 'logs-a', _id: 'a1' } },
    { msg: 'in a', _ts: 1_700_000_000_000 },
    { index: { _index: 'logs-b', _id: 'b1' } },
    { msg: 'in b', _ts: 1_700_000_000_001 },
    { index: { _index: 'secrets', _id: 's1' } },
    { msg: 'not for the writer', _ts: 1_700_000_000_002 },
  ]);
  const bulkInit = { body: lines, headers: { 'content-type': 'application/x-ndjson' } };
  await call('nobody', '/_bulk', bulkInit);
  await call('reader', '/_bulk', bulkInit);
  await call('writer', '/_bulk', bulkInit);
  await call('writer', '/logs-b/_doc/b2', { method: 'PUT', body: { msg: 'b again', _ts: 1_700_000_000_003 } });
  await call('writer', '/secrets/_doc/s2', { method: 'PUT', body: { msg: 'no', _ts: 1_700_000_000_004 } });
  for (const who of ['nobody', 'reader', 'writer'] as const) {
    await call(who, '/logs-a/_search');
    await call(who, '/logs-b/_search');
    await call(who, '/logs-*/_count');
    await call(who, '/logs-b/_doc/b1');
    await call(who, '/logs-a/_doc/a1');
    // listings over indexes of both cache nodes: each key sees what it may read
    await call(who, '/_cat/indices?format=json&h=index,docs.count');
    await call(who, '/_stats/docs');
    await call(who, '/logs-*,secrets/_mapping');
    await call(who, '/secrets/_mapping');
    await call(who, '/_field_caps?fields=msg');
    await call(who, '/_mget', { body: { docs: [{ _index: 'logs-b', _id: 'b1' }, { _index: 'secrets', _id: 's1' }, { _index: 'logs-a', _id: 'a1' }] } });
  }
  // one-segment APIs other than an index keep their own permissions
  for (const who of ['watcher', 'reader'] as const) {
    await call(who, '/_license');
    await call(who, '/_alias');
    await call(who, '/_all');
  }
  await call('writer', '/*', { method: 'DELETE' });
  await call('writer', '/_cat/indices?format=json&h=index,docs.count');
  await call('reader', '/logs-a/_doc/a1', { method: 'DELETE' });
  return out;
}

test('a split cluster with access control answers each key as one process does', async (t) => {
  const metastoreUrl = await metastore(t);
  if (metastoreUrl === undefined) return;
  const cluster = { SVC_METASTORE_URL: metastoreUrl, SVC_CLUSTER_SECRET: SECRET, SVC_HEARTBEAT_INTERVAL_SECONDS: '0.2', SVC_LEASE_SECONDS: '1.5' };
  const single = await start('single', {});
  const api = await start('coord', { ...cluster, SVC_ROLES: 'coordinator,api' });
  await start('cache-1', { ...cluster, SVC_ROLES: 'cache' });
  await start('cache-2', { ...cluster, SVC_ROLES: 'cache' });
  const deadline = Date.now() + 20_000;
  while ((await request<{ nodes: Array<{ live: boolean }> }>(`${api.url}/_internal/cluster`, { headers: { 'x-svc-cluster-secret': SECRET } })).body.nodes.filter((n) => n.live).length < 3) {
    assert.ok(Date.now() < deadline, 'the cache nodes joined');
    await new Promise((r) => setTimeout(r, 100));
  }
  const expected = await scenario(single.url);
  const actual = await scenario(api.url);
  assert.deepEqual(actual, expected);
  assert.ok(expected.some((r) => (r as { status: number }).status === 403));
  assert.ok(expected.some((r) => (r as { status: number }).status === 401));
});
