/**
 * Documents: turning a raw JSON object from a write into an `IndexedDocument` (identity, `_ts`,
 * stored source text, flattened typed fields), updating the index mapping as new fields appear.
 */
export type { IndexedDocument, IndexedField } from './indexed-document.js';
