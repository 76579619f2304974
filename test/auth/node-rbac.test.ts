/** Access control on the real node: every route guarded, data scoped by the actor's grants. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { unmappedRoutesOf } from '../../src/http/auth-hook.js';
import { ndjson, request, startTestNode, tempDir, type TestNode } from '../support/node.js';

const BOOTSTRAP = 'bootstrap-for-the-real-node';
const dataDir = tempDir('svc-node-rbac-');
let node: TestNode;
let admin = '';

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

function bulk(key: string, docs: Array<[string, object]>) {
  const lines: unknown[] = [];
  for (const [index, doc] of docs) lines.push({ index: { _index: index } }, doc);
  return request<{ errors: boolean; items: Array<{ index: { _index: string; status: number; error?: { type: string } } }> }>(`${node.url}/_bulk`, {
    body: ndjson(lines),
    headers: { 'content-type': 'application/x-ndjson', ...auth(key) },
  });
}

async function newKey(role: { name: string; database: string[]; indexes: Array<{ names: string[]; permissions: string[] }> }): Promise<string> {
  assert.equal((await request(`${node.url}/v1/roles`, { body: role, headers: auth(admin) })).status, 200);
  const res = await request<{ api_key: string }>(`${node.url}/v1/api_keys`, { body: { name: role.name, role: role.name }, headers: auth(admin) });
  assert.equal(res.status, 200);
  return res.body.api_key;
}

before(async () => {
  node = await startTestNode({ SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: BOOTSTRAP }, dataDir);
  const role = { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] };
  assert.equal((await request(`${node.url}/v1/roles`, { body: role, headers: auth(BOOTSTRAP) })).status, 200);
  admin = (await request<{ api_key: string }>(`${node.url}/v1/api_keys`, { body: { name: 'admin', role: 'admin' }, headers: auth(BOOTSTRAP) })).body.api_key;
  const res = await bulk(admin, [
    ['logs-a', { _line: 'alpha one' }],
    ['logs-b', { _line: 'alpha two' }],
    ['secrets', { _line: 'alpha hidden' }],
  ]);
  assert.equal(res.body.errors, false);
});

after(async () => {
  await node.destroy();
});

test('every route of the node has a row in the permission table', () => {
  assert.deepEqual(unmappedRoutesOf(node.app), []);
});

test('no credential: 401, except the probes', async () => {
  assert.equal((await request(`${node.url}/`)).status, 401);
  assert.equal((await request(`${node.url}/_search`)).status, 401);
  assert.equal((await request(`${node.url}/health/livez`)).status, 200);
  assert.equal((await request(`${node.url}/health/readyz`)).status, 200);
  assert.equal((await fetch(`${node.url}/metrics`, { headers: auth(admin) })).status, 200);
  assert.equal((await fetch(`${node.url}/metrics`)).status, 401);
});

test('a reader of logs-* finds only documents of those indexes', async () => {
  const reader = await newKey({ name: 'logs-reader', database: [], indexes: [{ names: ['logs-*'], permissions: ['read'] }] });
  type Hits = { hits: { hits: Array<{ _index: string }> } };
  const everything = await request<Hits>(`${node.url}/_search?q=alpha`, { headers: auth(reader) });
  assert.equal(everything.status, 200);
  assert.deepEqual(everything.body.hits.hits.map((h) => h._index).sort(), ['logs-a', 'logs-b']);
  const all = await request<Hits>(`${node.url}/*/_search?q=alpha`, { headers: auth(reader) });
  assert.deepEqual(all.body.hits.hits.map((h) => h._index).sort(), ['logs-a', 'logs-b']);
  assert.equal((await request(`${node.url}/secrets/_search?q=alpha`, { headers: auth(reader) })).status, 403);
  assert.equal((await request<{ count: number }>(`${node.url}/logs-*/_count`, { headers: auth(reader) })).body.count, 2);
  assert.equal((await request(`${node.url}/_bulk`, { body: ndjson([{ index: { _index: 'logs-a' } }, {}]), headers: { ...auth(reader), 'content-type': 'application/x-ndjson' } })).status, 403);
  const adminCount = await request<{ count: number }>(`${node.url}/_count`, { headers: auth(admin) });
  assert.equal(adminCount.body.count, 3);
});

test('a writer of logs-*: the item for another index fails alone with 403', async () => {
  const writer = await newKey({ name: 'logs-writer', database: [], indexes: [{ names: ['logs-*'], permissions: ['write'] }] });
  const res = await bulk(writer, [
    ['logs-a', { _line: 'beta' }],
    ['secrets', { _line: 'beta' }],
  ]);
  assert.equal(res.status, 200);
  assert.equal(res.body.errors, true);
  assert.deepEqual(
    res.body.items.map((i) => [i.index._index, i.index.status, i.index.error?.type]),
    [
      ['logs-a', 201, undefined],
      ['secrets', 403, 'security_exception'],
    ],
  );
});

test('after a restart of the node the bootstrap key stays refused', async () => {
  await node.close();
  node = await startTestNode({ SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: BOOTSTRAP }, dataDir);
  const res = await request<{ error: { reason: string } }>(`${node.url}/v1/roles`, { headers: auth(BOOTSTRAP) });
  assert.equal(res.status, 403);
  assert.match(res.body.error.reason, /bootstrap key is no longer valid/);
  assert.equal((await request(`${node.url}/v1/roles`, { headers: auth(admin) })).status, 200);
});
