/**
 * Users with JWTs over a real socket: keys served from a local JWKS endpoint, provider roles
 * translated by role mappings, and every way a token can be wrong.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as jose from 'jose';
import { call, startAuthServer, type AuthServer } from './harness.js';

type SigningKey = Awaited<ReturnType<typeof jose.generateKeyPair>>['privateKey'];

const BOOTSTRAP = 'bootstrap-for-jwt-tests';
const AUDIENCE = 'svc-jwt-test';
const ISSUER = 'https://idp.test';
let dataDir = '';
let server: AuthServer;
let jwks: http.Server;
let admin = '';
let signingKey: SigningKey;
let strangerKey: SigningKey;

before(async () => {
  const pair = await jose.generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  strangerKey = (await jose.generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await jose.exportJWK(pair.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
  jwks = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  const address = jwks.address();
  const jwksUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/.well-known/jwks.json`;

  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-rbac-jwt-'));
  server = await startAuthServer({
    dataDir,
    rbac: { enabled: true, bootstrapKey: BOOTSTRAP, jwt: { audience: AUDIENCE, issuers: [ISSUER], keySource: { kind: 'jwks_url', url: jwksUrl }, rolesClaim: 'roles' } },
  });
  const adminRole = { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] };
  await call(`${server.url}/v1/roles`, { credential: BOOTSTRAP, body: adminRole });
  admin = ((await call(`${server.url}/v1/api_keys`, { credential: BOOTSTRAP, body: { name: 'admin', role: 'admin' } })).body as { api_key: string }).api_key;
  for (const role of [
    { name: 'logs-reader', database: [], indexes: [{ names: ['logs-*'], permissions: ['read'] }] },
    { name: 'watcher', database: ['monitor'], indexes: [] },
  ]) {
    assert.equal((await call(`${server.url}/v1/roles`, { credential: admin, body: role })).status, 200);
  }
  for (const mapping of [
    { name: 'idp-readers', roles: ['logs-reader'] },
    { name: 'idp-sre', roles: ['watcher', 'logs-reader'] },
  ]) {
    assert.equal((await call(`${server.url}/v1/role_mappings`, { credential: admin, body: mapping })).status, 200);
  }
});

after(async () => {
  await server.close();
  await new Promise<void>((resolve) => jwks.close(() => resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface TokenOptions {
  roles?: unknown;
  audience?: string;
  issuer?: string;
  expiresAt?: number;
  subject?: string;
  kid?: string;
  key?: SigningKey;
}

function token(opts: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new jose.SignJWT({ roles: opts.roles ?? ['idp-readers'] })
    .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? 'key-1' })
    .setSubject(opts.subject ?? 'alice@example.com')
    .setAudience(opts.audience ?? AUDIENCE)
    .setIssuer(opts.issuer ?? ISSUER)
    .setIssuedAt()
    .setExpirationTime(opts.expiresAt ?? now + 300)
    .sign(opts.key ?? signingKey);
}

test('a valid token gets the roles its provider roles map to', async () => {
  const reader = await token();
  assert.equal((await call(`${server.url}/logs-1/_search`, { credential: reader })).status, 200);
  assert.deepEqual(((await call(`${server.url}/_search`, { credential: reader })).body as { indices: string[] }).indices, ['logs-1', 'logs-2']);
  assert.equal((await call(`${server.url}/secrets/_search`, { credential: reader })).status, 403);
  assert.equal((await call(`${server.url}/metrics`, { credential: reader })).status, 403);
  assert.equal((await call(`${server.url}/v1/roles`, { credential: reader })).status, 403);

  // several provider roles, as a space-separated string: the union of their service roles
  const sre = await token({ roles: 'idp-sre unknown-group', subject: 'bob' });
  assert.equal((await call(`${server.url}/metrics`, { credential: sre })).status, 200);
  assert.equal((await call(`${server.url}/logs-2/_count`, { credential: sre })).status, 200);
});

test('a valid token whose roles map to nothing may only call the endpoints open to everyone signed in', async () => {
  const nobody = await token({ roles: ['strangers'] });
  assert.equal((await call(`${server.url}/`, { credential: nobody })).status, 200);
  assert.equal((await call(`${server.url}/_cat/indices`, { credential: nobody })).status, 200);
  assert.deepEqual(((await call(`${server.url}/_cat/indices`, { credential: nobody })).body as { indices: string[] }).indices, []);
  assert.equal((await call(`${server.url}/_search`, { credential: nobody })).status, 403);
});

test('wrong audience, wrong issuer, expired, alg none, unknown key, wrong key: 401', async () => {
  const now = Math.floor(Date.now() / 1000);
  const cases: Array<[string, string, RegExp]> = [
    ['wrong audience', await token({ audience: 'someone-else' }), /claim \[aud\]/],
    ['wrong issuer', await token({ issuer: 'https://evil.test' }), /claim \[iss\]/],
    ['expired', await token({ expiresAt: now - 600 }), /expired/],
    ['alg none', new jose.UnsecuredJWT({ roles: ['idp-sre'] }).setSubject('mallory').setAudience(AUDIENCE).setIssuer(ISSUER).setExpirationTime(now + 300).encode(), /not allowed|not valid/],
    ['unknown kid', await token({ kid: 'key-2', key: strangerKey }), /no key of the JWKS matches/],
    ['wrong key, known kid', await token({ key: strangerKey }), /signature is not valid/],
    ['garbage with two dots', 'abc.def.ghi', /not valid/],
  ];
  for (const [name, jwt, reason] of cases) {
    const res = await call(`${server.url}/logs-1/_search`, { credential: jwt });
    assert.equal(res.status, 401, `${name}: ${res.text}`);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="svc"', name);
    const error = (res.body as { error: { type: string; reason: string } }).error;
    assert.equal(error.type, 'security_exception', name);
    assert.match(error.reason, reason, name);
    assert.ok(!res.text.includes(jwt), `${name}: the token is not echoed`);
  }
});

test('removing a mapping or narrowing a role takes effect on the next request', async () => {
  const sre = await token({ roles: ['idp-sre'], subject: 'carol' });
  assert.equal((await call(`${server.url}/metrics`, { credential: sre })).status, 200);
  const mappings = (await call(`${server.url}/v1/role_mappings`, { credential: admin })).body as Array<{ id: number; name: string }>;
  const id = mappings.find((m) => m.name === 'idp-sre')!.id;
  assert.equal((await call(`${server.url}/v1/role_mappings/${id}`, { method: 'DELETE', credential: admin })).status, 200);
  assert.equal((await call(`${server.url}/metrics`, { credential: sre })).status, 403);
  assert.equal((await call(`${server.url}/logs-1/_search`, { credential: sre })).status, 403);

  // now the watcher role is free to go; users mapped to it lose it at once
  await call(`${server.url}/v1/role_mappings`, { credential: admin, body: { name: 'idp-watch', roles: ['watcher'] } });
  const watcher = await token({ roles: ['idp-watch'] });
  assert.equal((await call(`${server.url}/metrics`, { credential: watcher })).status, 200);
  const roles = (await call(`${server.url}/v1/roles`, { credential: admin })).body as Array<{ id: number; name: string }>;
  const watcherRole = roles.find((r) => r.name === 'watcher')!;
  assert.equal((await call(`${server.url}/v1/roles/${watcherRole.id}`, { method: 'PUT', credential: admin, body: { name: 'watcher', database: [], indexes: [] } })).status, 200);
  assert.equal((await call(`${server.url}/metrics`, { credential: watcher })).status, 403);
});

test('audit lines name users by subject and never hold a token', async () => {
  const before = server.logs.length;
  const jwt = await token({ roles: ['idp-readers'], subject: 'dave' });
  await call(`${server.url}/metrics`, { credential: jwt });
  await call(`${server.url}/metrics`, { credential: await token({ audience: 'x' }) });
  const lines = server.logs.slice(before).filter((l) => l.audit === true);
  assert.deepEqual(lines.map((l) => [l.event, l.actor]), [['access_denied', 'user:dave'], ['authentication_failed', undefined]]);
  assert.ok(!server.logText().includes(jwt));
  assert.ok(!server.logText().includes(jwt.split('.')[2]!));
});
