import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from 'node:test';
import {
  API_KEY_LENGTH,
  apiKeyLookupId,
  apiKeyMatches,
  credentialFromHeader,
  generateApiKey,
  hashApiKey,
  looksLikeApiKey,
} from '../../src/auth/index.js';

test('api keys carry the svc_ prefix, a lookup id and 256 random bits', () => {
  const key = generateApiKey();
  assert.equal(key.value.length, API_KEY_LENGTH);
  assert.match(key.value, /^svc_[A-Za-z0-9_-]{55}$/);
  assert.equal(apiKeyLookupId(key.value), key.lookupId);
  assert.equal(key.lookupId.length, 12);
  const secret = Buffer.from(key.value.slice(4 + 12), 'base64url');
  assert.equal(secret.length, 32);
  assert.equal(key.hash, crypto.createHash('sha256').update(key.value).digest('hex'));
  assert.ok(!key.hash.includes(key.value));
});

test('each key is different', () => {
  const values = new Set(Array.from({ length: 200 }, () => generateApiKey().value));
  assert.equal(values.size, 200);
});

test('a key matches only its own hash', () => {
  const a = generateApiKey();
  const b = generateApiKey();
  assert.equal(apiKeyMatches(a.value, a.hash), true);
  assert.equal(apiKeyMatches(a.value, b.hash), false);
  assert.equal(apiKeyMatches(a.value.slice(0, -1) + (a.value.endsWith('A') ? 'B' : 'A'), a.hash), false);
  assert.equal(apiKeyMatches(a.value, 'abcd'), false);
  assert.equal(hashApiKey(a.value), a.hash);
});

test('only well-shaped values look like api keys', () => {
  const key = generateApiKey().value;
  assert.equal(looksLikeApiKey(key), true);
  assert.equal(looksLikeApiKey(key.slice(0, -1)), false);
  assert.equal(looksLikeApiKey(`${key}x`), false);
  assert.equal(looksLikeApiKey(`abc_${key.slice(4)}`), false);
  assert.equal(looksLikeApiKey('a.b.c'), false);
});

test('Authorization: Bearer and ApiKey schemes, case-insensitive', () => {
  const key = generateApiKey().value;
  assert.deepEqual(credentialFromHeader(`Bearer ${key}`), { kind: 'credential', value: key });
  assert.deepEqual(credentialFromHeader(`bearer ${key}`), { kind: 'credential', value: key });
  assert.deepEqual(credentialFromHeader(`ApiKey ${key}`), { kind: 'credential', value: key });
  // what Elasticsearch clients send for an { id, api_key } pair
  const encoded = Buffer.from(`12:${key}`).toString('base64');
  assert.deepEqual(credentialFromHeader(`ApiKey ${encoded}`), { kind: 'credential', value: key });
  assert.deepEqual(credentialFromHeader('ApiKey not-base64-of-a-key'), { kind: 'credential', value: 'not-base64-of-a-key' });
});

test('missing, empty, malformed and other schemes', () => {
  assert.deepEqual(credentialFromHeader(undefined), { kind: 'none' });
  assert.deepEqual(credentialFromHeader('  '), { kind: 'none' });
  assert.equal(credentialFromHeader('Bearer').kind, 'unsupported');
  assert.deepEqual(credentialFromHeader('Bearer  a chosen phrase '), { kind: 'credential', value: 'a chosen phrase' });
  const basic = credentialFromHeader(`Basic ${Buffer.from('u:p').toString('base64')}`);
  assert.equal(basic.kind, 'unsupported');
  assert.match(basic.kind === 'unsupported' ? basic.reason : '', /scheme \[Basic\] is not supported/);
  assert.equal(credentialFromHeader(['Bearer a', 'Bearer b']).kind, 'unsupported');
});
