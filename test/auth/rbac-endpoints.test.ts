/**
 * Every endpoint of the permission table, called over a real socket by an actor that holds the
 * permission and by one that does not. Generated from the table itself.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ENDPOINT_PERMISSIONS, type EndpointPermission } from '../../src/auth/index.js';
import { call, startAuthServer, type AuthServer } from './harness.js';

const BOOTSTRAP = 'bootstrap-for-endpoint-tests';
let dataDir = '';
let server: AuthServer;
/** api keys by role name */
const keys = new Map<string, string>();

const ROLES = [
  { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] },
  { name: 'index-read', database: [], indexes: [{ names: ['*'], permissions: ['read'] }] },
  { name: 'index-write', database: [], indexes: [{ names: ['*'], permissions: ['write'] }] },
  { name: 'index-delete', database: [], indexes: [{ names: ['*'], permissions: ['delete'] }] },
  { name: 'database-manage_security', database: ['manage_security'], indexes: [] },
  { name: 'database-monitor', database: ['monitor'], indexes: [] },
  { name: 'nothing', database: [], indexes: [] },
];

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-rbac-endpoints-'));
  server = await startAuthServer({
    dataDir,
    rbac: { enabled: true, bootstrapKey: BOOTSTRAP },
    extraRoutes: (app) => app.get('/zz/not-in-table', async () => ({ reached: true })),
  });
  // the bootstrap key makes every role, then the admin key makes their keys
  for (const role of ROLES) {
    const res = await call(`${server.url}/v1/roles`, { credential: BOOTSTRAP, body: role });
    assert.equal(res.status, 200, res.text);
  }
  const admin = await call(`${server.url}/v1/api_keys`, { credential: BOOTSTRAP, body: { name: 'admin', role: 'admin' } });
  keys.set('admin', (admin.body as { api_key: string }).api_key);
  for (const role of ROLES.slice(1)) {
    const res = await call(`${server.url}/v1/api_keys`, { credential: keys.get('admin')!, body: { name: role.name, role: role.name } });
    assert.equal(res.status, 200, res.text);
    keys.set(role.name, (res.body as { api_key: string }).api_key);
  }
});

after(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function concreteUrl(row: EndpointPermission): string {
  return row.url
    .replace(':index', 'logs-1')
    .replace(':type', 'doc')
    .replace(':aliases', 'a1')
    .replace(':stats', 'docs')
    .replace(':metric', 'nodes')
    .replace(':scrollId', 'c2Nyb2xs')
    .replace(':roleId', '999999')
    .replace(':id', '999999');
}

function bodyFor(row: EndpointPermission): string | undefined {
  if (row.method !== 'POST' && row.method !== 'PUT') return undefined;
  if (row.url.endsWith('/_bulk')) return '{"index":{"_index":"logs-1"}}\n{"_line":"x"}\n';
  return '{}';
}

/** Who holds the permission the row needs, and who does not (undefined: no credential). */
function actors(row: EndpointPermission): { allowed: string | undefined; denied: Array<string | undefined> } {
  const r = row.requirement;
  switch (r.kind) {
    case 'public':
      return { allowed: undefined, denied: [] };
    case 'authenticated':
      return { allowed: 'nothing', denied: [undefined] };
    case 'index':
      return { allowed: `index-${r.action}`, denied: ['nothing', ...['read', 'write', 'delete'].filter((a) => a !== r.action).map((a) => `index-${a}`)] };
    case 'database':
      return { allowed: `database-${r.action}`, denied: ['nothing', r.action === 'monitor' ? 'database-manage_security' : 'database-monitor', 'index-read'] };
    case 'org':
    case 'org_owner':
      // api keys hold no organisation role: nobody here is allowed (the permission table test has users)
      return { allowed: undefined, denied: [undefined, 'admin', 'nothing'] };
    case 'cluster_secret':
      // no credential opens an internal route, and this server has no cluster secret set
      return { allowed: undefined, denied: ['admin', 'nothing'] };
  }
}

describe('every endpoint of the permission table', () => {
  for (const row of ENDPOINT_PERMISSIONS) {
    test(`${row.method} ${row.url}`, async () => {
      const url = `${server.url}${concreteUrl(row)}`;
      const body = bodyFor(row);
      const { allowed, denied } = actors(row);
      const credential = allowed === undefined ? undefined : keys.get(allowed);
      if (row.requirement.kind !== 'org' && row.requirement.kind !== 'org_owner' && row.requirement.kind !== 'cluster_secret') {
        const ok = await call(url, { method: row.method, credential, body });
        assert.ok(ok.status !== 401 && ok.status !== 403, `${allowed ?? 'anonymous'} got ${ok.status}: ${ok.text}`);
        if (ok.headers.get('x-stand-in') !== null) {
          assert.equal(ok.status, 200, ok.text);
          assert.equal(ok.headers.get('x-stand-in'), `${row.method} ${row.url}`);
        }
      }
      for (const actor of denied) {
        const res = await call(url, { method: row.method, credential: actor === undefined ? undefined : keys.get(actor), body });
        assert.equal(res.status, actor === undefined ? 401 : 403, `${actor ?? 'anonymous'}: ${res.text}`);
        assert.equal(res.headers.get('x-stand-in'), null, 'the handler never ran');
        if (row.method !== 'HEAD') {
          const error = (res.body as { error: { type: string; reason: string } }).error;
          assert.equal(error.type, 'security_exception');
          if (actor !== undefined && row.requirement.kind !== 'authenticated' && row.requirement.kind !== 'public') {
            const r = row.requirement;
            const needed =
              r.kind === 'index' ? `index:${r.action}` : r.kind === 'database' ? `database:${r.action}` : r.kind === 'cluster_secret' ? 'SVC_CLUSTER_SECRET' : 'organisation';
            assert.ok(error.reason.includes(needed), error.reason);
          }
        }
      }
    });
  }
});

test('HEAD of a GET route needs what the GET needs', async () => {
  assert.equal((await call(`${server.url}/_search`, { method: 'HEAD', credential: keys.get('index-read') })).status, 200);
  assert.equal((await call(`${server.url}/_search`, { method: 'HEAD', credential: keys.get('nothing') })).status, 403);
  assert.equal((await call(`${server.url}/metrics`, { method: 'HEAD', credential: keys.get('index-read') })).status, 403);
});

test('every registered route has a row; a route without one is denied, even to the administrator', async () => {
  assert.deepEqual(server.installation.unmappedRoutes(), [
    { method: 'GET', url: '/zz/not-in-table' },
    { method: 'HEAD', url: '/zz/not-in-table' },
  ]);
  const res = await call(`${server.url}/zz/not-in-table`, { credential: keys.get('admin') });
  assert.equal(res.status, 403);
  assert.match((res.body as { error: { reason: string } }).error.reason, /no permission is defined for \[GET \/zz\/not-in-table\]/);
  assert.equal((await call(`${server.url}/zz/not-in-table`)).status, 401);
  const registered = server.installation.registeredRoutes();
  for (const row of ENDPOINT_PERMISSIONS) {
    assert.ok(registered.some((r) => r.method === row.method && r.url === row.url), `${row.method} ${row.url} was registered`);
  }
});

test('an unknown path answers 401 before the not-found answer', async () => {
  const anonymous = await call(`${server.url}/no/such/path/here`);
  assert.equal(anonymous.status, 401);
  const known = await call(`${server.url}/no/such/path/here`, { credential: keys.get('nothing') });
  assert.equal(known.status, 400);
  assert.match((known.body as { error: { reason: string } }).error.reason, /no handler found/);
});

test('ES clients may send the key with the ApiKey scheme, plain or base64 id:key', async () => {
  const key = keys.get('database-monitor')!;
  assert.equal((await call(`${server.url}/metrics`, { scheme: 'ApiKey', credential: key })).status, 200);
  const encoded = Buffer.from(`7:${key}`).toString('base64');
  assert.equal((await call(`${server.url}/metrics`, { scheme: 'ApiKey', credential: encoded })).status, 200);
  assert.equal((await call(`${server.url}/metrics`, { scheme: 'Basic', credential: encoded })).status, 401);
});
