/**
 * `_security/_authenticate` and `_security/user/_has_privileges` over HTTP on the real node,
 * through the official Elasticsearch client: an administrator key, a key that may read and write
 * `logs-*`, organisation members signed in with tokens, the bootstrap key, and a node without
 * access control. Each answer is checked against what the same credential is then let do.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, errors } from '@elastic/elasticsearch';
import { request, startTestNode, type TestNode } from '../support/node.js';
import { startIdentityProvider, type IdentityProvider } from '../support/identity-provider.js';

const BOOTSTRAP = 'bootstrap-for-the-privilege-checks';
const AUDIENCE = 'svc-privilege-checks';

interface HasPrivileges {
  username: string;
  has_all_requested: boolean;
  cluster: Record<string, boolean>;
  index: Record<string, Record<string, boolean>>;
  application: Record<string, Record<string, Record<string, boolean>>>;
}

interface Authenticate {
  username: string;
  roles: string[];
  metadata: Record<string, unknown>;
  enabled: boolean;
  authentication_realm: { name: string; type: string };
  authentication_type: string;
}

let idp: IdentityProvider;
let node: TestNode;
let admin = '';
let logsKey = '';

const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });

async function json<T>(method: string, path: string, credential: string, body?: object): Promise<T> {
  const res = await request<T>(`${node.url}${path}`, { method, body, headers: bearer(credential) });
  assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

function clientFor(credential: string): Client {
  return new Client({ node: node.url, auth: { bearer: credential } });
}

async function hasPrivileges(credential: string, body: object): Promise<HasPrivileges> {
  return (await clientFor(credential).security.hasPrivileges({ body })).body as HasPrivileges;
}

const token = (subject: string) => idp.token(AUDIENCE, { subject, expiresAt: Math.floor(Date.now() / 1000) + 3600 });

before(async () => {
  idp = await startIdentityProvider();
  node = await startTestNode({ SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: BOOTSTRAP, SVC_JWT_AUDIENCE: AUDIENCE, SVC_JWT_ISSUER: idp.issuer });
  await json('POST', '/v1/roles', BOOTSTRAP, { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] });
  admin = (await json<{ api_key: string }>('POST', '/v1/api_keys', BOOTSTRAP, { name: 'admin', role: 'admin' })).api_key;
  await json('POST', '/v1/roles', admin, { name: 'logs-rw', database: [], indexes: [{ names: ['logs-*'], permissions: ['read', 'write'] }] });
  logsKey = (await json<{ api_key: string }>('POST', '/v1/api_keys', admin, { name: 'logs-rw', role: 'logs-rw' })).api_key;
  await json('POST', '/v1/org', admin, { name: 'acme', owner: 'olivia' });
  await json('POST', '/v1/org/users', await token('olivia'), { subject: 'carl', role: 'contributor' });
});

after(async () => {
  await node?.destroy();
  await idp?.close();
});

describe('GET /_security/_authenticate', () => {
  it('names an API key, its role and its realm', async () => {
    const me = (await clientFor(logsKey).security.authenticate()).body as Authenticate;
    assert.match(me.username, /^api_key:\d+$/);
    assert.deepEqual(me.roles, ['logs-rw']);
    assert.equal(me.enabled, true);
    assert.deepEqual(me.authentication_realm, { name: '_es_api_key', type: '_es_api_key' });
    assert.equal(me.authentication_type, 'api_key');
  });

  it("names a user by the token's subject, with the organisation role", async () => {
    const me = (await clientFor(await token('carl')).security.authenticate()).body as Authenticate;
    assert.equal(me.username, 'carl');
    assert.deepEqual(me.metadata, { org_role: 'contributor' });
    assert.equal(me.authentication_type, 'token');
    const stranger = (await clientFor(await token('stranger')).security.authenticate()).body as Authenticate;
    assert.deepEqual([stranger.username, stranger.metadata], ['stranger', {}]);
  });

  it('answers 401 to a credential the service does not accept', async () => {
    await assert.rejects(clientFor('svc_not-a-key').security.authenticate(), (err: unknown) => err instanceof errors.ResponseError && err.statusCode === 401);
  });
});

describe('GET|POST /_security/user/_has_privileges', () => {
  it('answers the administrator: every privilege it asks about', async () => {
    const body = { cluster: ['manage_security', 'monitor', 'all'], index: [{ names: ['secrets', 'logs-*', '*'], privileges: ['read', 'write', 'delete', 'all'] }] };
    const res = await hasPrivileges(admin, body);
    assert.equal(res.has_all_requested, true);
    assert.deepEqual(res.cluster, { manage_security: true, monitor: true, all: true });
    const every = { read: true, write: true, delete: true, all: true };
    assert.deepEqual(res.index, { secrets: every, 'logs-*': every, '*': every });
    assert.deepEqual(res.application, {});
  });

  it('answers a key on logs-* index by index, pattern by pattern, as its requests are then let in', async () => {
    const res = await hasPrivileges(logsKey, {
      cluster: ['manage_security', 'monitor'],
      index: [
        { names: ['logs-app', 'secrets'], privileges: ['read', 'delete'] },
        { names: ['logs-*', 'logs-app-*', 'log*', '*'], privileges: ['write'] },
      ],
    });
    assert.equal(res.has_all_requested, false);
    assert.deepEqual(res.cluster, { manage_security: false, monitor: false });
    assert.deepEqual(res.index, {
      'logs-app': { read: true, delete: false },
      secrets: { read: false, delete: false },
      'logs-*': { write: true },
      'logs-app-*': { write: true },
      'log*': { write: false },
      '*': { write: false },
    });
    // what it answered is what the key is then let do
    const status = async (method: string, path: string) => (await fetch(`${node.url}${path}`, { method, headers: bearer(logsKey) })).status;
    assert.equal(await status('GET', '/logs-app/_search'), 404);
    assert.equal(await status('GET', '/secrets/_search'), 403);
    assert.equal(await status('DELETE', '/logs-app'), 403);
    assert.equal(await status('GET', '/v1/roles'), 403);
  });

  it('answers has_all_requested true when everything asked is held, by GET as well as POST', async () => {
    const res = await clientFor(logsKey).security.hasPrivileges({ method: 'GET', body: { index: [{ names: 'logs-app', privileges: ['read', 'write'] }] } });
    assert.equal(res.meta.request.params.method, 'GET');
    assert.equal(res.statusCode, 200);
    assert.match(res.body.username, /^api_key:\d+$/);
    assert.equal(res.body.has_all_requested, true);
    assert.deepEqual(res.body.index, { 'logs-app': { read: true, write: true } });
  });

  it('answers organisation permissions as privileges of the application svc-org, by the member\'s role', async () => {
    const ask = { application: [{ application: 'svc-org', resources: ['*'], privileges: ['read:org', 'write:org', 'write:api_key', 'read:billing', 'write:billing', 'no-such'] }] };
    const owner = await hasPrivileges(await token('olivia'), ask);
    assert.equal(owner.username, 'olivia');
    assert.deepEqual(owner.application, { 'svc-org': { '*': { 'read:org': true, 'write:org': true, 'write:api_key': true, 'read:billing': true, 'write:billing': true, 'no-such': false } } });
    const contributor = await hasPrivileges(await token('carl'), ask);
    assert.deepEqual(contributor.application['svc-org']!['*'], { 'read:org': true, 'write:org': false, 'write:api_key': true, 'read:billing': false, 'write:billing': false, 'no-such': false });
    // an API key holds no organisation role, whatever its database actions
    const key = await hasPrivileges(admin, ask);
    assert.ok(Object.values(key.application['svc-org']!['*']!).every((held) => !held));
    assert.equal(key.has_all_requested, false);
    // and what the contributor was told is what it is then let do
    const contributorToken = await token('carl');
    const status = async (method: string, path: string) => (await fetch(`${node.url}${path}`, { method, headers: bearer(contributorToken) })).status;
    assert.equal(await status('GET', '/v1/org/api_keys'), 200);
    assert.equal(await status('GET', '/v1/org/billing/invoices'), 403);
  });

  it('holds an unknown privilege name for nobody, and another application for nobody', async () => {
    const res = await hasPrivileges(admin, { cluster: ['manage'], index: [{ names: ['logs-app'], privileges: ['view_index_metadata'] }], application: [{ application: 'kibana', resources: ['*'], privileges: ['all'] }] });
    assert.deepEqual([res.cluster, res.index, res.application], [{ manage: false }, { 'logs-app': { view_index_metadata: false } }, { kibana: { '*': { all: false } } }]);
  });

  it('refuses a question that asks nothing or is badly formed, with 400', async () => {
    const ask = (body: unknown) => request<{ error: { type: string; reason: string } }>(`${node.url}/_security/user/_has_privileges`, { body: body as object, headers: bearer(admin) });
    const empty = await ask({});
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error.type, 'action_request_validation_exception');
    assert.match(empty.body.error.reason, /must specify at least one privilege/);
    const noNames = await ask({ index: [{ names: [], privileges: ['read'] }] });
    assert.equal(noNames.status, 400);
    assert.match(noNames.body.error.reason, /at least one index name/);
    const unknown = await ask({ cluster: ['monitor'], indices: [] });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.type, 'parse_exception');
    assert.match(unknown.body.error.reason, /unexpected field \[indices\]/);
    const wrongType = await ask({ cluster: 'monitor' });
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body.error.type, 'parse_exception');
  });

  it('is refused to a request without a credential (401) and to the bootstrap key (403)', async () => {
    const body = { cluster: ['monitor'] };
    const none = await request(`${node.url}/_security/user/_has_privileges`, { body });
    assert.equal(none.status, 401);
    const bootstrap = await request(`${node.url}/_security/user/_has_privileges`, { body, headers: bearer(BOOTSTRAP) });
    assert.equal(bootstrap.status, 403);
  });
});

describe('the security endpoints with access control off', () => {
  let open: TestNode;
  before(async () => {
    open = await startTestNode();
  });
  after(async () => {
    await open?.destroy();
  });

  it('answer for the anonymous user, who holds every cluster and index privilege and no organisation permission', async () => {
    const client = new Client({ node: open.url });
    const me = (await client.security.authenticate()).body as Authenticate;
    assert.deepEqual([me.username, me.roles, me.authentication_type], ['_anonymous', [], 'anonymous']);
    const res = (
      await client.security.hasPrivileges({
        body: { cluster: ['manage_security', 'whatever'], index: [{ names: ['*', 'secrets'], privileges: ['delete'] }], application: [{ application: 'svc-org', resources: ['*'], privileges: ['read:org'] }] },
      })
    ).body as HasPrivileges;
    assert.deepEqual(res.cluster, { manage_security: true, whatever: true });
    assert.deepEqual(res.index, { '*': { delete: true }, secrets: { delete: true } });
    assert.deepEqual(res.application, { 'svc-org': { '*': { 'read:org': false } } });
    assert.equal(res.has_all_requested, false);
  });
});
