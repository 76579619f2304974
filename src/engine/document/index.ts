/**
 * Documents: turning a raw JSON object from a write into an `IndexedDocument` (identity, `_ts`,
 * stored source text, flattened typed fields), updating the index mapping as new fields appear.
 * The stored source is the original object's JSON with `_id`/`_index` dropped and `_ts` (epoch
 * ms) and `_lid` set in place, or appended when absent; rebuilding from it gives the same document.
 */
export type { IndexedDocument, IndexedField } from './indexed-document.js';
export { buildDocument, MAX_OBJECT_DEPTH, type DocumentIdentity } from './build-document.js';
export { parseDocumentText } from './parse-document.js';
export { identityMembers, withIdentity, splitIdentity, identityOfBytes, type DocumentIdentityText } from './identity.js';
