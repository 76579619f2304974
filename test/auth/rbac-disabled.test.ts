/** With RBAC off, no credential is needed anywhere and handlers see an allow-all context. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ENDPOINT_PERMISSIONS } from '../../src/auth/index.js';
import { call, startAuthServer, type AuthServer } from './harness.js';

let dataDir = '';
let server: AuthServer;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-rbac-off-'));
  server = await startAuthServer({ dataDir, rbac: { enabled: false } });
});

after(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('every table endpoint answers without a credential', async () => {
  for (const row of ENDPOINT_PERMISSIONS.filter((r) => !r.url.startsWith('/v1/') && r.method !== 'HEAD')) {
    const url = `${server.url}${row.url.replace(/:[A-Za-z]+/g, 'x')}`;
    const body = row.method === 'POST' || row.method === 'PUT' ? '{"index":{"_index":"secrets"}}\n{}\n' : undefined;
    const res = await call(url, { method: row.method, body });
    assert.equal(res.status, 200, `${row.method} ${row.url}: ${res.text}`);
    assert.equal((res.body as { actor: string }).actor, 'anonymous');
  }
});

test('patterns cover every index and nothing is refused by name', async () => {
  assert.deepEqual(((await call(`${server.url}/_search`)).body as { indices: string[] }).indices, ['logs-1', 'logs-2', 'metrics', 'secrets']);
  assert.deepEqual(((await call(`${server.url}/secrets/_search`)).body as { indices: string[] }).indices, ['secrets']);
  assert.deepEqual(((await call(`${server.url}/_cat/indices`)).body as { indices: string[] }).indices, ['logs-1', 'logs-2', 'metrics', 'secrets']);
});

test('the /v1 API works without a credential, a bogus one is ignored, and changes are audited as anonymous', async () => {
  const role = await call(`${server.url}/v1/roles`, { body: { name: 'r', database: [], indexes: [] } });
  assert.equal(role.status, 200, role.text);
  assert.equal((await call(`${server.url}/v1/roles`, { credential: 'whatever' })).status, 200);
  const audit = server.logs.filter((l) => l.audit === true);
  assert.deepEqual(audit.map((l) => [l.event, l.actor]), [['role.created', 'anonymous']]);
});
