/**
 * RBAC switched on with exactly the specification's three settings, as a new user would run
 * `svc serve`; and users' tokens checked against the keys a pinned issuer publishes, found by
 * OpenID Connect discovery from a real provider on a loopback port. No token is ever accepted
 * unverified.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { exited, request, spawnNode, startTestNode, tempDir, type ChildNode, type TestNode } from '../support/node.js';
import { startIdentityProvider, type IdentityProvider } from '../support/identity-provider.js';

const BOOTSTRAP = 'bootstrap-for-key-source-tests';
const AUDIENCE = 'svc-key-source';
const ADMIN_ROLE = { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] };

const auth = (credential: string) => ({ authorization: `Bearer ${credential}` });
type ErrorBody = { error: { type: string; reason: string }; status: number };

let idp: IdentityProvider;
before(async () => {
  idp = await startIdentityProvider();
});
after(async () => {
  await idp.close();
});

describe('SVC_RBAC, SVC_BOOTSTRAP_KEY and SVC_JWT_AUDIENCE alone', () => {
  const dataDir = tempDir('svc-three-settings-');
  let node: ChildNode;

  before(async () => {
    node = await spawnNode(dataDir, { SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: BOOTSTRAP, SVC_JWT_AUDIENCE: AUDIENCE });
  });
  after(async () => {
    node.child.kill('SIGTERM');
    await exited(node.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('the service starts and says at start-up which setting makes it accept tokens', () => {
    const lines = node.output().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const warning = lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('JWTs are refused'));
    assert.ok(warning, node.output());
    assert.equal(warning.level, 40);
    assert.match(String(warning.msg), /no signing key source is known for the audience \[svc-key-source\]: set SVC_JWT_ISSUER .* or set SVC_JWT_JWKS_URL/);
  });

  test('the bootstrap key and the api keys it creates work', async () => {
    assert.equal((await request(`${node.url}/v1/roles`, { body: ADMIN_ROLE, headers: auth(BOOTSTRAP) })).status, 200);
    const key = await request<{ api_key: string }>(`${node.url}/v1/api_keys`, { body: { name: 'admin', role: 'admin' }, headers: auth(BOOTSTRAP) });
    assert.equal(key.status, 200);
    assert.equal((await request(`${node.url}/_cluster/health`, { headers: auth(key.body.api_key) })).status, 200);
    assert.equal((await request(`${node.url}/_cluster/health`, { headers: auth(BOOTSTRAP) })).status, 403);
  });

  test('a well-signed token is refused with 401, and the log line names the setting to add', async () => {
    const token = await idp.token(AUDIENCE, { roles: ['admin'] });
    const res = await request<ErrorBody>(`${node.url}/_search`, { headers: auth(token) });
    assert.equal(res.status, 401);
    assert.equal(res.body.error.type, 'security_exception');
    assert.match(res.body.error.reason, /cannot be verified: .*set SVC_JWT_ISSUER/);
    // give the child a moment to write the line
    await new Promise((resolve) => setTimeout(resolve, 100));
    const audit = node.output().split('\n').filter((l) => l.includes('"authentication_failed"'));
    assert.ok(audit.some((l) => /set SVC_JWT_ISSUER/.test(l)), node.output());
    assert.ok(!node.output().includes(token.split('.')[2]!), 'the token is not logged');
    assert.deepEqual(idp.requests, [], 'nothing was fetched from a provider nobody named');
  });
});

describe('a pinned issuer: keys found by discovery', () => {
  let node: TestNode;
  let admin = '';

  before(async () => {
    node = await startTestNode({ SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: BOOTSTRAP, SVC_JWT_AUDIENCE: AUDIENCE, SVC_JWT_ISSUER: idp.issuer });
    await request(`${node.url}/v1/roles`, { body: ADMIN_ROLE, headers: auth(BOOTSTRAP) });
    admin = (await request<{ api_key: string }>(`${node.url}/v1/api_keys`, { body: { name: 'admin', role: 'admin' }, headers: auth(BOOTSTRAP) })).body.api_key;
    await request(`${node.url}/v1/role_mappings`, { body: { name: 'ops', roles: ['admin'] }, headers: auth(admin) });
  });
  after(async () => {
    await node.destroy();
  });

  test('a token signed by the provider is verified with the keys its discovery document names', async () => {
    assert.deepEqual(idp.requests, [], 'discovery waits for the first token, so a provider that is down does not stop the start');
    const res = await request(`${node.url}/_cluster/health`, { headers: auth(await idp.token(AUDIENCE, { roles: ['ops'] })) });
    assert.equal(res.status, 200);
    assert.deepEqual(idp.requests, ['/.well-known/openid-configuration', '/keys']);
    await request(`${node.url}/_cluster/health`, { headers: auth(await idp.token(AUDIENCE, { roles: ['ops'], subject: 'bob' })) });
    assert.equal(idp.requests.length, 2, 'the keys are cached');
  });

  test('tokens not signed by its keys, for another audience, from another issuer or expired are refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, string, RegExp]> = [
      ['foreign key', await idp.token(AUDIENCE, { roles: ['ops'], foreignKey: true }), /signature is not valid/],
      ['other audience', await idp.token(AUDIENCE, { roles: ['ops'], audience: 'someone-else' }), /claim \[aud\]/],
      ['other issuer', await idp.token(AUDIENCE, { roles: ['ops'], issuer: 'https://evil.example' }), /claim \[iss\]/],
      ['expired', await idp.token(AUDIENCE, { roles: ['ops'], expiresAt: now - 600 }), /expired/],
    ];
    for (const [name, token, reason] of cases) {
      const res = await request<ErrorBody>(`${node.url}/_cluster/health`, { headers: auth(token) });
      assert.equal(res.status, 401, name);
      assert.match(res.body.error.reason, reason, name);
    }
  });
});

describe('a discovery document that names another issuer', () => {
  let node: TestNode;

  before(async () => {
    idp.setDocumentIssuer('https://somewhere-else.example');
    node = await startTestNode({ SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: BOOTSTRAP, SVC_JWT_AUDIENCE: AUDIENCE, SVC_JWT_ISSUER: idp.issuer });
  });
  after(async () => {
    idp.setDocumentIssuer(undefined);
    await node.destroy();
  });

  test('is not trusted: tokens are refused with 503, never accepted', async () => {
    const res = await request<ErrorBody>(`${node.url}/_search`, { headers: auth(await idp.token(AUDIENCE)) });
    assert.equal(res.status, 503);
    assert.equal(res.body.error.type, 'service_unavailable_exception');
    assert.match(res.body.error.reason, /names the issuer "https:\/\/somewhere-else.example", not the pinned/);
  });
});
