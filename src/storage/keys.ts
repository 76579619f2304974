/**
 * Object keys: relative paths with `/` separators, the same rule on every backend so that a key
 * that works on the local store also works on Azure and S3 and back.
 */
import { BadRequestError } from '../common/errors.js';

/** S3's and Azure's limit on a key (a blob name), in UTF-8 bytes */
const MAX_KEY_BYTES = 1024;
// eslint-disable-next-line no-control-regex
const CONTROL_OR_BACKSLASH = /[\u0000-\u001f\u007f\\]/;

/**
 * Throws unless `key` is non-empty, relative, at most 1,024 bytes, and made of segments that are
 * neither empty, `.` nor `..`, with no backslash or control character.
 */
export function checkKey(key: string): string {
  if (key.length === 0) throw new BadRequestError('object key must not be empty');
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new BadRequestError(`object key is longer than ${MAX_KEY_BYTES} bytes`);
  if (CONTROL_OR_BACKSLASH.test(key)) throw new BadRequestError(`object key [${key}] holds a control character or backslash`);
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw new BadRequestError(`object key [${key}] must be a relative path without empty, "." or ".." segments`);
    }
  }
  return key;
}

/**
 * Throws unless `prefix` could start a valid key: the empty prefix lists everything, and the last
 * segment may be partial ("a/b", "a/b/", "a/.") since a prefix is a string prefix.
 */
export function checkPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  if (Buffer.byteLength(prefix) > MAX_KEY_BYTES) throw new BadRequestError(`object key prefix is longer than ${MAX_KEY_BYTES} bytes`);
  if (CONTROL_OR_BACKSLASH.test(prefix)) throw new BadRequestError(`object key prefix [${prefix}] holds a control character or backslash`);
  const segments = prefix.split('/');
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i];
    if (segment === '' || segment === '.' || segment === '..') {
      throw new BadRequestError(`object key prefix [${prefix}] must be a relative path without empty, "." or ".." segments`);
    }
  }
  return prefix;
}

/** A store-level key prefix as given in a setting ("", "a/b" or "a/b/"), normalised to "" or "a/b/". */
export function normalizeStorePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  checkKey(trimmed);
  return `${trimmed}/`;
}

/** How an S3 store names itself in logs and errors (credentials never appear). */
export function s3StoreUri(bucket: string, prefix: string, endpoint: string | undefined): string {
  return `s3://${bucket}/${normalizeStorePrefix(prefix)}${endpoint ? ` (${endpoint})` : ''}`;
}
