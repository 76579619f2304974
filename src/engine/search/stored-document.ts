/**
 * A document as reads show it: its `_id` text and its source. A generated `_id` is the decimal
 * text of the stored number; a client-supplied one is stored with the source, which is shown
 * without it (document/identity.ts).
 */
import { isClientKey } from '../../common/index.js';
import { splitIdentity } from '../document/index.js';
import type { SegmentReader } from '../segment-reader.js';

export interface StoredDocument {
  id: string;
  source: string;
  /** the document's `_version` (1 for generated ids) */
  version: number;
}

export function storedDocument(segment: SegmentReader, doc: number): StoredDocument {
  const key = segment.ids()[doc]!;
  return fromStoredSource(key, segment.source(doc));
}

/** The same, from a document's `_id` column value and stored source. */
export function fromStoredSource(key: bigint, stored: string): StoredDocument {
  if (!isClientKey(key)) return { id: key.toString(), source: stored, version: 1 };
  const split = splitIdentity(stored);
  if (split === null) return { id: key.toString(), source: stored, version: 1 };
  return { id: split.identity.id, source: split.base, version: split.identity.version };
}
