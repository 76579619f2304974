/** JWT validation with each key source, checked without HTTP. */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as jose from 'jose';
import { algorithmsForKey, createJwtVerifier, rolesFromClaims } from '../../src/auth/index.js';
import type { JwtConfig, JwtKeySource } from '../../src/config/index.js';

let dir = '';
const AUD = 'svc-audience';

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-jwt-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function config(keySource: JwtKeySource, issuers: string[] = []): JwtConfig {
  return { audience: AUD, rolesClaim: 'roles', issuers, keySource };
}

async function sign(key: Parameters<SignJWTSign>[0], alg: string, claims: jose.JWTPayload = {}, kid?: string): Promise<string> {
  const jwt = new jose.SignJWT({ roles: ['ops'], ...claims }).setProtectedHeader(kid ? { alg, kid } : { alg }).setSubject('alice').setAudience(AUD).setIssuedAt().setExpirationTime('5m');
  return jwt.sign(key);
}
type SignJWTSign = jose.SignJWT['sign'];

test('a PEM public key file: RSA keys verify RS and PS tokens, and only those', async () => {
  const { publicKey, privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const file = path.join(dir, 'rsa.pem');
  fs.writeFileSync(file, await jose.exportSPKI(publicKey));
  const verifier = createJwtVerifier(config({ kind: 'public_key_file', path: file }));
  assert.deepEqual(await verifier.verify(await sign(privateKey, 'RS256')), { subject: 'alice', providerRoles: ['ops'] });
  const ps = await jose.generateKeyPair('PS384', { extractable: true });
  const psFile = path.join(dir, 'ps.pem');
  fs.writeFileSync(psFile, await jose.exportSPKI(ps.publicKey));
  const psVerifier = createJwtVerifier(config({ kind: 'public_key_file', path: psFile }));
  assert.equal((await psVerifier.verify(await sign(ps.privateKey, 'PS384'))).subject, 'alice');
  // a token signed with another key of the same type
  const other = await jose.generateKeyPair('RS256');
  await assert.rejects(verifier.verify(await sign(other.privateKey, 'RS256')), /signature is not valid/);
});

test('a PEM public key file: EC and Ed25519 keys pick their algorithm from the key', async () => {
  for (const [alg, curve] of [['ES256', 'prime256v1'], ['ES384', 'secp384r1'], ['ES512', 'secp521r1']] as const) {
    const { publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: curve });
    assert.deepEqual(algorithmsForKey(publicKey), [alg]);
  }
  const ed = await jose.generateKeyPair('EdDSA', { extractable: true });
  const file = path.join(dir, 'ed.pem');
  fs.writeFileSync(file, await jose.exportSPKI(ed.publicKey));
  const verifier = createJwtVerifier(config({ kind: 'public_key_file', path: file }));
  assert.equal((await verifier.verify(await sign(ed.privateKey, 'EdDSA'))).subject, 'alice');
  assert.deepEqual(algorithmsForKey(crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey), ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']);
});

test('a JWKS file', async () => {
  const { publicKey, privateKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'one', alg: 'ES256', use: 'sig' };
  const file = path.join(dir, 'jwks.json');
  fs.writeFileSync(file, JSON.stringify({ keys: [jwk] }));
  const verifier = createJwtVerifier(config({ kind: 'jwks_file', path: file }));
  assert.equal((await verifier.verify(await sign(privateKey, 'ES256', {}, 'one'))).subject, 'alice');
  await assert.rejects(verifier.verify(await sign(privateKey, 'ES256', {}, 'two')), /no key of the JWKS matches/);
});

test('an HS256 secret verifies HS256 only; asymmetric sources never accept HS256', async () => {
  const secret = 'a shared secret of reasonable length!!';
  const verifier = createJwtVerifier(config({ kind: 'hs256_secret', secret: secret }));
  const key = new TextEncoder().encode(secret);
  assert.equal((await verifier.verify(await sign(key, 'HS256'))).subject, 'alice');
  await assert.rejects(verifier.verify(await sign(key, 'HS512')), /algorithm is not allowed/);
  await assert.rejects(verifier.verify(await sign(new TextEncoder().encode('another secret entirely, long enough'), 'HS256')), /signature is not valid/);

  const { publicKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const file = path.join(dir, 'rsa-for-hs.pem');
  const pem = await jose.exportSPKI(publicKey);
  fs.writeFileSync(file, pem);
  // the classic confusion: an HS256 token keyed with the public key's text
  const confused = await sign(new TextEncoder().encode(pem), 'HS256');
  await assert.rejects(createJwtVerifier(config({ kind: 'public_key_file', path: file })).verify(confused), /algorithm is not allowed/);
});

test('claims: audience, issuer, expiry, not-before, subject, and alg none', async () => {
  const { publicKey, privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const file = path.join(dir, 'claims.pem');
  fs.writeFileSync(file, await jose.exportSPKI(publicKey));
  const verifier = createJwtVerifier(config({ kind: 'public_key_file', path: file }, ['https://idp.example']));
  const now = Math.floor(Date.now() / 1000);
  const good = () => new jose.SignJWT({ roles: 'a b' }).setProtectedHeader({ alg: 'RS256' }).setSubject('bob').setAudience(AUD).setIssuer('https://idp.example');

  assert.deepEqual(await verifier.verify(await good().setExpirationTime(now + 60).sign(privateKey)), { subject: 'bob', providerRoles: ['a', 'b'] });
  await assert.rejects(verifier.verify(await good().setAudience('other').setExpirationTime(now + 60).sign(privateKey)), /claim \[aud\]/);
  await assert.rejects(verifier.verify(await good().setIssuer('https://evil.example').setExpirationTime(now + 60).sign(privateKey)), /claim \[iss\]/);
  await assert.rejects(verifier.verify(await good().setExpirationTime(now - 120).sign(privateKey)), /expired/);
  // within the 30 s clock tolerance
  assert.equal((await verifier.verify(await good().setExpirationTime(now - 5).sign(privateKey))).subject, 'bob');
  await assert.rejects(verifier.verify(await good().setNotBefore(now + 120).setExpirationTime(now + 600).sign(privateKey)), /claim \[nbf\]/);
  await assert.rejects(verifier.verify(await good().sign(privateKey)), /claim \[exp\]/);
  const noSub = await new jose.SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setAudience(AUD).setIssuer('https://idp.example').setExpirationTime(now + 60).sign(privateKey);
  await assert.rejects(verifier.verify(noSub), /claim \[sub\]/);
  const none = new jose.UnsecuredJWT({ roles: ['admin'] }).setSubject('mallory').setAudience(AUD).setIssuer('https://idp.example').setExpirationTime(now + 60).encode();
  await assert.rejects(verifier.verify(none), /not allowed|not valid/);
  await assert.rejects(verifier.verify('a.b.c'), /not valid/);
});

test('the roles claim: an array, a space or comma separated string, a nested path, or absent', () => {
  assert.deepEqual(rolesFromClaims({ roles: ['a', 'b', 'a', 3] }, 'roles'), ['a', 'b']);
  assert.deepEqual(rolesFromClaims({ roles: 'a b,c ,, d' }, 'roles'), ['a', 'b', 'c', 'd']);
  assert.deepEqual(rolesFromClaims({ groups: ['g'] }, 'groups'), ['g']);
  assert.deepEqual(rolesFromClaims({ realm_access: { roles: ['r1'] } }, 'realm_access.roles'), ['r1']);
  assert.deepEqual(rolesFromClaims({ 'realm_access.roles': ['flat'] }, 'realm_access.roles'), ['flat']);
  assert.deepEqual(rolesFromClaims({}, 'roles'), []);
  assert.deepEqual(rolesFromClaims({ roles: { a: 1 } }, 'roles'), []);
});
