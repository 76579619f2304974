/** The bootstrap story over a real socket, through a restart. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call, startAuthServer, type AuthServer } from './harness.js';

const BOOTSTRAP = 'operator-chosen bootstrap secret';
const rbac = { enabled: true, bootstrapKey: BOOTSTRAP };
const ADMIN_ROLE = { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] };

let dataDir = '';
let server: AuthServer;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-rbac-bootstrap-'));
  server = await startAuthServer({ dataDir, rbac });
});

after(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function errorOf(body: unknown): { type: string; reason: string; status: number } {
  const b = body as { error: { type: string; reason: string }; status: number };
  return { type: b.error.type, reason: b.error.reason, status: b.status };
}

test('bootstrap, first administrator, then the bootstrap key is refused, also after a restart', async () => {
  const url = server.url;

  // no credential, or an unknown one: 401 with the challenge header and an ES error body
  const anonymous = await call(`${url}/`);
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="svc"');
  assert.deepEqual(errorOf(anonymous.body), { type: 'security_exception', reason: 'missing authentication credentials', status: 401 });
  const wrong = await call(`${url}/v1/roles`, { credential: 'not the bootstrap key' });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.headers.get('www-authenticate'), 'Bearer realm="svc"');
  assert.ok(!wrong.text.includes('not the bootstrap key'));

  // the bootstrap key may read and create roles and keys, and nothing else
  assert.deepEqual((await call(`${url}/v1/roles`, { credential: BOOTSTRAP })).body, []);
  const role = await call(`${url}/v1/roles`, { credential: BOOTSTRAP, body: ADMIN_ROLE });
  assert.equal(role.status, 200, role.text);
  assert.deepEqual(role.body, { id: 1, ...ADMIN_ROLE });
  const search = await call(`${url}/_search`, { credential: BOOTSTRAP });
  assert.equal(search.status, 403);
  assert.equal(errorOf(search.body).type, 'security_exception');
  assert.equal((await call(`${url}/v1/role_mappings`, { credential: BOOTSTRAP, body: { name: 'g', roles: ['admin'] } })).status, 403);
  assert.equal((await call(`${url}/v1/roles/1`, { method: 'DELETE', credential: BOOTSTRAP })).status, 403);
  assert.equal((await call(`${url}/`, { credential: BOOTSTRAP })).status, 403);

  const created = await call(`${url}/v1/api_keys`, { credential: BOOTSTRAP, body: { name: 'first-admin', role: 'admin' } });
  assert.equal(created.status, 200, created.text);
  assert.equal(created.headers.get('cache-control'), 'no-store');
  const key = created.body as { id: number; name: string; role: string; api_key: string; created_at: string };
  assert.equal(key.name, 'first-admin');
  assert.equal(key.role, 'admin');
  assert.match(key.api_key, /^svc_/);

  // from now on the bootstrap key is refused with 403, on every endpoint
  for (const [method, p] of [['GET', '/v1/roles'], ['POST', '/v1/api_keys'], ['GET', '/']] as const) {
    const refused = await call(`${url}${p}`, { method, credential: BOOTSTRAP, body: method === 'POST' ? { name: 'x', role: 'admin' } : undefined });
    assert.equal(refused.status, 403, `${method} ${p}`);
    assert.match(errorOf(refused.body).reason, /^bootstrap key is no longer valid/);
  }

  // the administrator key administers
  assert.equal((await call(`${url}/`, { credential: key.api_key })).status, 200);
  const mapping = await call(`${url}/v1/role_mappings`, { credential: key.api_key, body: { name: 'idp-admins', roles: ['admin'] } });
  assert.equal(mapping.status, 200, mapping.text);
  const listed = (await call(`${url}/v1/api_keys`, { credential: key.api_key })).body as Array<Record<string, unknown>>;
  assert.deepEqual(listed, [{ id: key.id, name: 'first-admin', role: 'admin', created_at: key.created_at }]);
  assert.ok(!JSON.stringify(listed).includes(key.api_key), 'listing never shows the key');

  // restart on the same data directory: still refused, and the admin key still works
  await server.close();
  server = await startAuthServer({ dataDir, rbac });
  const afterRestart = await call(`${server.url}/v1/roles`, { credential: BOOTSTRAP });
  assert.equal(afterRestart.status, 403);
  assert.match(errorOf(afterRestart.body).reason, /bootstrap key is no longer valid/);
  assert.equal((await call(`${server.url}/v1/roles`, { credential: key.api_key })).status, 200);

  // even with every administrator key revoked, the bootstrap key stays retired
  assert.equal((await call(`${server.url}/v1/api_keys/${key.id}`, { method: 'DELETE', credential: key.api_key })).status, 200);
  assert.equal((await call(`${server.url}/v1/roles`, { credential: key.api_key })).status, 401);
  assert.equal((await call(`${server.url}/v1/roles`, { credential: BOOTSTRAP })).status, 403);
});

test('no log line holds the bootstrap key or an api key', async () => {
  const text = server.logText();
  assert.ok(!text.includes(BOOTSTRAP));
  assert.ok(!/svc_[A-Za-z0-9_-]{55}/.test(text));
});
