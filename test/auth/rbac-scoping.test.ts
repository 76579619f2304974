/** Index patterns, bulk items, and changes to keys and roles taking effect at once. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call, startAuthServer, type AuthServer } from './harness.js';

const BOOTSTRAP = 'bootstrap-for-scoping-tests';
let dataDir = '';
let server: AuthServer;
let admin = '';

async function createRole(body: unknown): Promise<{ id: number }> {
  const res = await call(`${server.url}/v1/roles`, { credential: admin, body });
  assert.equal(res.status, 200, res.text);
  return res.body as { id: number };
}

async function createKey(name: string, role: string): Promise<{ id: number; api_key: string }> {
  const res = await call(`${server.url}/v1/api_keys`, { credential: admin, body: { name, role } });
  assert.equal(res.status, 200, res.text);
  return res.body as { id: number; api_key: string };
}

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-rbac-scoping-'));
  server = await startAuthServer({ dataDir, rbac: { enabled: true, bootstrapKey: BOOTSTRAP } });
  const role = { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] };
  await call(`${server.url}/v1/roles`, { credential: BOOTSTRAP, body: role });
  admin = ((await call(`${server.url}/v1/api_keys`, { credential: BOOTSTRAP, body: { name: 'admin', role: 'admin' } })).body as { api_key: string }).api_key;
});

after(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a reader of logs-* sees only those indexes through patterns and _all, and is refused others by name', async () => {
  await createRole({ name: 'logs-reader', database: [], indexes: [{ names: ['logs-*'], permissions: ['read'] }] });
  const { api_key: key } = await createKey('logs-reader', 'logs-reader');
  const indices = async (p: string) => {
    const res = await call(`${server.url}${p}`, { credential: key });
    assert.equal(res.status, 200, res.text);
    return (res.body as { indices: string[] }).indices;
  };
  assert.deepEqual(await indices('/_search'), ['logs-1', 'logs-2']);
  assert.deepEqual(await indices('/_all/_search'), ['logs-1', 'logs-2']);
  assert.deepEqual(await indices('/*/_search'), ['logs-1', 'logs-2']);
  assert.deepEqual(await indices('/logs-*/_count'), ['logs-1', 'logs-2']);
  assert.deepEqual(await indices('/s*/_search'), []);
  assert.deepEqual(await indices('/logs-2/_search'), ['logs-2']);
  assert.deepEqual(await indices('/_cat/indices'), ['logs-1', 'logs-2']);

  const named = await call(`${server.url}/secrets/_search`, { credential: key });
  assert.equal(named.status, 403);
  assert.match((named.body as { error: { reason: string } }).error.reason, /permission \[index:read\] on index \[secrets\] is required/);
  assert.equal((await call(`${server.url}/logs-1,secrets/_search`, { credential: key })).status, 403);
  // a name that does not exist is refused the same way, so existence does not leak
  assert.equal((await call(`${server.url}/no-such-index/_search`, { credential: key })).status, 403);
  // no write grant at all: refused before any item is looked at
  assert.equal((await call(`${server.url}/_bulk`, { credential: key, body: '{"index":{"_index":"logs-1"}}\n{}\n' })).status, 403);
});

test('in a bulk request, items for indexes the actor may not write fail alone with 403', async () => {
  await createRole({ name: 'logs-writer', database: [], indexes: [{ names: ['logs-*'], permissions: ['write'] }] });
  const { api_key: key } = await createKey('logs-writer', 'logs-writer');
  const body = ['logs-1', 'secrets', 'logs-2'].map((i) => `{"index":{"_index":"${i}"}}\n{"_line":"x"}\n`).join('');
  const res = await call(`${server.url}/_bulk`, { credential: key, body, contentType: 'application/x-ndjson' });
  assert.equal(res.status, 200, res.text);
  const items = (res.body as { items: Array<{ _index: string; status: number; error?: { type: string } }> }).items;
  assert.deepEqual(
    items.map((i) => [i._index, i.status, i.error?.type]),
    [
      ['logs-1', 201, undefined],
      ['secrets', 403, 'security_exception'],
      ['logs-2', 201, undefined],
    ],
  );
});

test('a revoked key fails on its very next request', async () => {
  await createRole({ name: 'monitor', database: ['monitor'], indexes: [] });
  const key = await createKey('prometheus', 'monitor');
  assert.equal((await call(`${server.url}/metrics`, { credential: key.api_key })).status, 200);
  assert.equal((await call(`${server.url}/v1/api_keys/${key.id}`, { method: 'DELETE', credential: admin })).status, 200);
  const res = await call(`${server.url}/metrics`, { credential: key.api_key });
  assert.equal(res.status, 401);
  assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="svc"');
  assert.equal((await call(`${server.url}/v1/api_keys/${key.id}`, { method: 'DELETE', credential: admin })).status, 404);
});

test('a changed role counts from the next request; a role in use cannot be deleted, and once free it goes', async () => {
  const role = await createRole({ name: 'temp', database: [], indexes: [{ names: ['metrics'], permissions: ['read'] }] });
  const key = await createKey('temp-key', 'temp');
  assert.equal((await call(`${server.url}/metrics/_search`, { credential: key.api_key })).status, 200);

  const narrowed = await call(`${server.url}/v1/roles/${role.id}`, {
    method: 'PUT',
    credential: admin,
    body: { name: 'temp-renamed', database: [], indexes: [{ names: ['logs-1'], permissions: ['read'] }] },
  });
  assert.equal(narrowed.status, 200, narrowed.text);
  assert.equal((await call(`${server.url}/metrics/_search`, { credential: key.api_key })).status, 403);
  assert.equal((await call(`${server.url}/logs-1/_search`, { credential: key.api_key })).status, 200, 'the renamed role still backs the key');
  const listed = (await call(`${server.url}/v1/api_keys`, { credential: admin })).body as Array<{ name: string; role: string }>;
  assert.equal(listed.find((k) => k.name === 'temp-key')?.role, 'temp-renamed');

  const inUse = await call(`${server.url}/v1/roles/${role.id}`, { method: 'DELETE', credential: admin });
  assert.equal(inUse.status, 409);
  assert.match((inUse.body as { error: { reason: string } }).error.reason, /used by api keys \[temp-key\]/);

  await call(`${server.url}/v1/api_keys/${(key as { id: number }).id}`, { method: 'DELETE', credential: admin });
  assert.equal((await call(`${server.url}/v1/roles/${role.id}`, { method: 'DELETE', credential: admin })).status, 200);
  assert.equal((await call(`${server.url}/v1/roles/${role.id}`, { credential: admin })).status, 404);
});

test('/v1 validation: 400 with an ES error body, 409 on duplicate names, 404 on unknown ids', async () => {
  const cases: Array<[string, string, unknown, number, RegExp]> = [
    ['POST', '/v1/roles', { name: 'x', database: [], indexes: [], extra: 1 }, 400, /unknown field \[extra\]/],
    ['POST', '/v1/roles', { name: 'x', database: ['root'], indexes: [] }, 400, /unknown database action \[root\]/],
    ['POST', '/v1/roles', { name: 'x', database: [], indexes: [{ names: ['a*b'], permissions: ['read'] }] }, 400, /trailing prefix wildcard/],
    ['POST', '/v1/roles', { name: 'x', database: [], indexes: [{ names: ['a'], permissions: ['admin'] }] }, 400, /unknown index permission/],
    ['POST', '/v1/roles', { name: '', database: [], indexes: [] }, 400, /must not be empty/],
    ['POST', '/v1/roles', 'not json', 400, /failed to parse request body/],
    ['POST', '/v1/roles', { name: 'admin', database: [], indexes: [] }, 409, /role \[admin\] already exists/],
    ['POST', '/v1/api_keys', { name: 'k', role: 'missing-role' }, 400, /role \[missing-role\] does not exist/],
    ['POST', '/v1/api_keys', { name: 'admin', role: 'admin' }, 409, /api key \[admin\] already exists/],
    ['POST', '/v1/role_mappings', { name: 'm', roles: ['missing-role'] }, 400, /role \[missing-role\] does not exist/],
    ['GET', '/v1/roles/424242', undefined, 404, /role \[424242\] not found/],
    ['GET', '/v1/roles/abc', undefined, 400, /role id \[abc\] is not a positive integer/],
    ['DELETE', '/v1/api_keys/424242', undefined, 404, /api key \[424242\] not found/],
    ['PUT', '/v1/role_mappings/424242', { name: 'm', roles: ['admin'] }, 404, /role mapping \[424242\] not found/],
  ];
  for (const [method, p, body, status, reason] of cases) {
    const res = await call(`${server.url}${p}`, { method, credential: admin, body });
    assert.equal(res.status, status, `${method} ${p}: ${res.text}`);
    const b = res.body as { error: { type: string; reason: string; root_cause: unknown[] }; status: number };
    assert.equal(b.status, status);
    assert.match(b.error.reason, reason);
    assert.ok(Array.isArray(b.error.root_cause));
  }
});

test('role mappings over HTTP: create, upsert by name with PUT on the collection, get, update, delete', async () => {
  const created = await call(`${server.url}/v1/role_mappings`, { credential: admin, body: { name: 'idp-ops', roles: ['admin'] } });
  const m = created.body as { id: number; name: string; roles: string[]; created_at: string };
  assert.deepEqual({ name: m.name, roles: m.roles }, { name: 'idp-ops', roles: ['admin'] });
  assert.match(m.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal((await call(`${server.url}/v1/role_mappings`, { credential: admin, body: { name: 'idp-ops', roles: ['admin'] } })).status, 409);

  await createRole({ name: 'viewer', database: [], indexes: [{ names: ['*'], permissions: ['read'] }] });
  const upsert = await call(`${server.url}/v1/role_mappings`, { method: 'PUT', credential: admin, body: { name: 'idp-ops', roles: ['viewer'] } });
  assert.deepEqual(upsert.body, { ...m, roles: ['viewer'] });
  const fresh = await call(`${server.url}/v1/role_mappings`, { method: 'PUT', credential: admin, body: { name: 'idp-new', roles: ['viewer'] } });
  assert.equal(fresh.status, 200);
  assert.notEqual((fresh.body as { id: number }).id, m.id);

  assert.deepEqual((await call(`${server.url}/v1/role_mappings/${m.id}`, { credential: admin })).body, { ...m, roles: ['viewer'] });
  const renamed = await call(`${server.url}/v1/role_mappings/${m.id}`, { method: 'PUT', credential: admin, body: { ...m, name: 'idp-ops-2', roles: ['admin', 'viewer'] } });
  assert.deepEqual(renamed.body, { ...m, name: 'idp-ops-2', roles: ['admin', 'viewer'] });
  const all = (await call(`${server.url}/v1/role_mappings`, { credential: admin })).body as Array<{ name: string }>;
  assert.deepEqual(all.map((x) => x.name), ['idp-ops-2', 'idp-new']);
  assert.equal((await call(`${server.url}/v1/role_mappings/${m.id}`, { method: 'DELETE', credential: admin })).status, 200);
  assert.equal((await call(`${server.url}/v1/role_mappings/${m.id}`, { credential: admin })).status, 404);
});

test('audit lines for rejected credentials, denied permissions and changes, naming actors, never secrets', async () => {
  const before = server.logs.length;
  await createRole({ name: 'audited', database: [], indexes: [] });
  const key = await createKey('audited-key', 'audited');
  await call(`${server.url}/metrics`, { credential: key.api_key });
  await call(`${server.url}/metrics?token=abc`, { credential: 'svc_bogus-value' });
  const lines = server.logs.slice(before).filter((l) => l.audit === true);
  const adminId = ((await call(`${server.url}/v1/api_keys`, { credential: admin })).body as Array<{ id: number; name: string }>).find((k) => k.name === 'admin')!.id;
  assert.deepEqual(
    lines.map((l) => [l.event, l.actor, l.name ?? l.path]),
    [
      ['role.created', `api_key:${adminId}`, 'audited'],
      ['api_key.created', `api_key:${adminId}`, 'audited-key'],
      ['access_denied', `api_key:${key.id}`, '/metrics'],
      ['authentication_failed', undefined, '/metrics'],
    ],
  );
  assert.match(String(lines[2]!.reason), /database:monitor/);
  const text = server.logText();
  assert.ok(!text.includes(key.api_key) && !text.includes(admin) && !text.includes(BOOTSTRAP) && !text.includes('svc_bogus-value'));
  assert.ok(!text.includes('token=abc'), 'query strings stay out of audit lines');
});
