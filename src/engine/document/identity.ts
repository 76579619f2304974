/**
 * The identity of a document written with a client-supplied `_id`: the `_id` text and the
 * document's `_version`, stored as the last two members of its stored source:
 * `{…,"_ts":…,"_lid":…,"_id":"web-1","_version":2}`. Neither key can be a member of a stored
 * source otherwise (both are metadata fields, dropped from documents), so the last `,"_id":"`
 * of such a source always starts them: an escaped `_id` text holds no bare quote. Searches and
 * reads show the source without them, and the `_id` text as the hit's `_id`.
 */

const MARKER = ',"_id":"';
const MARKER_BYTES = Buffer.from(MARKER, 'latin1');

export interface DocumentIdentityText {
  id: string;
  version: number;
}

/** The members to put before a stored source's closing brace. */
export function identityMembers(id: string, version: number): string {
  return `,"_id":${JSON.stringify(id)},"_version":${version}`;
}

/** A stored source (ending in `}`) with the identity members added before its closing brace. */
export function withIdentity(source: string, id: string, version: number): string {
  const end = source.lastIndexOf('}');
  return source.slice(0, end) + identityMembers(id, version) + source.slice(end);
}

/** The identity members of a stored source and the source without them; null when it has none. */
export function splitIdentity(source: string): { base: string; identity: DocumentIdentityText } | null {
  const at = source.lastIndexOf(MARKER);
  if (at < 0) return null;
  const identity = parseMembers(source.slice(at + 1));
  return identity === null ? null : { base: source.slice(0, at) + '}', identity };
}

/** The identity of a stored source held as bytes [start, end) of a buffer, or null. */
export function identityOfBytes(bytes: Buffer, start: number, end: number): DocumentIdentityText | null {
  const at = bytes.lastIndexOf(MARKER_BYTES, end - MARKER_BYTES.length);
  if (at < start) return null;
  return parseMembers(bytes.toString('utf8', at + 1, end));
}

/** `"_id":"…","_version":N}` (with the closing brace) as an identity, or null. */
function parseMembers(tail: string): DocumentIdentityText | null {
  try {
    const parsed = JSON.parse('{' + tail) as { _id?: unknown; _version?: unknown };
    if (typeof parsed._id !== 'string' || typeof parsed._version !== 'number') return null;
    return { id: parsed._id, version: parsed._version };
  } catch {
    return null;
  }
}
