/**
 * Every value of a multi-valued keyword field, for terms: the ordinal column holds only a doc's
 * first value, the postings hold them all. For fields of at most MAX_MULTI_TERMS distinct values
 * in a segment whose postings outnumber the docs with a value, the postings are turned into a
 * doc → ordinals table (8 bytes per doc + 4 per value, charged); otherwise null and the ordinal
 * column serves.
 */
import type { SegmentReader } from '../segment-reader.js';
import { allocate, type Account } from './memory.js';

export const MAX_MULTI_TERMS = 65_536;

export interface MultiValues {
  /** ordinals of doc d: ords[starts[d] .. starts[d + 1]), ascending */
  starts: Int32Array;
  ords: Int32Array;
}

/** immutable segments: whether a field has docs with several values */
const multiByFile = new WeakMap<SegmentReader, Map<string, boolean>>();

function isMultiValued(segment: SegmentReader, field: string, terms: readonly string[]): boolean {
  const memo = segment.live === true ? undefined : multiByFile.get(segment);
  const known = memo?.get(field);
  if (known !== undefined) return known;
  let postings = 0;
  for (const term of terms) postings += segment.docFreq(field, term);
  const multi = postings > segment.exists(field).length;
  if (segment.live !== true) {
    let map = multiByFile.get(segment);
    if (map === undefined) multiByFile.set(segment, (map = new Map()));
    map.set(field, multi);
  }
  return multi;
}

export function multiValues(segment: SegmentReader, field: string, terms: readonly string[], limit: number, account: Account): MultiValues | null {
  if (terms.length === 0 || terms.length > MAX_MULTI_TERMS || !isMultiValued(segment, field, terms)) return null;
  const starts = allocate(Int32Array, limit + 1, account, field);
  const lists: Uint32Array[] = [];
  for (const term of terms) {
    const docs = segment.postings(field, term) ?? new Uint32Array(0);
    lists.push(docs);
    for (let i = 0; i < docs.length && docs[i]! < limit; i++) starts[docs[i]! + 1]! += 1;
  }
  for (let d = 0; d < limit; d++) starts[d + 1]! += starts[d]!;
  const ords = allocate(Int32Array, starts[limit]!, account, field);
  const cursor = allocate(Int32Array, limit, account, field);
  cursor.set(starts.subarray(0, limit));
  for (let o = 0; o < lists.length; o++) {
    const docs = lists[o]!;
    for (let i = 0; i < docs.length && docs[i]! < limit; i++) ords[cursor[docs[i]!]!++] = o;
  }
  account.release(cursor.byteLength);
  return { starts, ords };
}
