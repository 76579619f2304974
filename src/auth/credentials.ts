/**
 * Reads the credential out of an `Authorization` header. `Bearer <credential>` is the service's
 * own form; `ApiKey <credential>` is accepted too because Elasticsearch clients send API keys
 * that way, either as the key itself or base64-encoded as `id:key`.
 */
import { looksLikeApiKey } from './api-key.js';

export type PresentedCredential =
  | { kind: 'none' }
  | { kind: 'unsupported'; reason: string }
  | { kind: 'credential'; value: string };

// the credential is the rest of the line: a bootstrap key is any string the operator chose
const SCHEME = /^([A-Za-z]+)[ \t]+(\S(?:.*\S)?)$/;

export function credentialFromHeader(header: string | string[] | undefined): PresentedCredential {
  if (header === undefined) return { kind: 'none' };
  if (Array.isArray(header)) {
    if (header.length !== 1) return { kind: 'unsupported', reason: 'more than one authorization header' };
    header = header[0];
  }
  if (header.trim() === '') return { kind: 'none' };
  const m = SCHEME.exec(header.trim());
  if (m === null) return { kind: 'unsupported', reason: 'malformed authorization header' };
  const scheme = m[1].toLowerCase();
  const value = m[2];
  if (scheme === 'bearer') return { kind: 'credential', value };
  if (scheme === 'apikey') return { kind: 'credential', value: unwrapEsApiKey(value) };
  return { kind: 'unsupported', reason: `authorization scheme [${m[1]}] is not supported; use Bearer` };
}

/** `base64(id:key)`, as Elasticsearch clients build it from an `{ id, api_key }` pair. */
function unwrapEsApiKey(value: string): string {
  if (looksLikeApiKey(value)) return value;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon !== -1) {
    const key = decoded.slice(colon + 1);
    if (looksLikeApiKey(key)) return key;
  }
  return value;
}
