/**
 * API key values: `svc_` + a 12-character lookup id (9 random bytes, base64url) + a 43-character
 * secret (32 random bytes, base64url), 59 characters in all. Only the lookup id and the SHA-256
 * of the whole value are stored; the value itself is shown once, at creation.
 */
import crypto from 'node:crypto';

export const API_KEY_PREFIX = 'svc_';
const LOOKUP_ID_BYTES = 9;
const SECRET_BYTES = 32;
const LOOKUP_ID_CHARS = 12;
const SECRET_CHARS = 43;
const API_KEY_SHAPE = /^svc_[A-Za-z0-9_-]{55}$/;

export interface NewApiKey {
  /** the credential, returned to the caller once and never stored */
  value: string;
  /** the lookup id stored beside the hash (`key_prefix`) */
  lookupId: string;
  /** hex SHA-256 of `value` */
  hash: string;
}

export function generateApiKey(): NewApiKey {
  const lookupId = crypto.randomBytes(LOOKUP_ID_BYTES).toString('base64url');
  const secret = crypto.randomBytes(SECRET_BYTES).toString('base64url');
  const value = `${API_KEY_PREFIX}${lookupId}${secret}`;
  return { value, lookupId, hash: hashApiKey(value) };
}

export function hashApiKey(value: string): string {
  return crypto.createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Whether a credential has the shape of one of our API keys. */
export function looksLikeApiKey(credential: string): boolean {
  return API_KEY_SHAPE.test(credential);
}

/** The lookup id of a well-shaped key value. */
export function apiKeyLookupId(value: string): string {
  return value.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + LOOKUP_ID_CHARS);
}

/** Compares a presented key with a stored hash in constant time. */
export function apiKeyMatches(value: string, storedHashHex: string): boolean {
  const presented = Buffer.from(hashApiKey(value), 'hex');
  const stored = Buffer.from(storedHashHex, 'hex');
  if (stored.length !== presented.length) return false;
  return crypto.timingSafeEqual(presented, stored);
}

/** Constant-time equality of two secrets of any length (hashing first equalises the lengths). */
export function secretsEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a, 'utf8').digest();
  const hb = crypto.createHash('sha256').update(b, 'utf8').digest();
  return crypto.timingSafeEqual(ha, hb);
}

export const API_KEY_LENGTH = API_KEY_PREFIX.length + LOOKUP_ID_CHARS + SECRET_CHARS;
