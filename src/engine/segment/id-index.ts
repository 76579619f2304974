/**
 * The generated `_id`s of a segment file in ascending order beside their docs: a document is
 * found by its generated id with a binary search instead of a scan of the whole `_id` column,
 * which made a bulk of deletes or updates by generated id cost its items times the segments'
 * docs. One generator hands out ids and `_lid`s in the same order, and segments keep docs in
 * `_lid` order, so the ids are usually taken in doc order as they are; where they do not rise
 * (ids logged on another node, say), they are sorted. Client-supplied keys are left out.
 */
import { isClientKey } from '../../common/index.js';

export interface IdIndex {
  /** generated ids, ascending */
  ids: BigUint64Array;
  /** the doc holding each id */
  docs: Uint32Array;
}

export function buildIdIndex(column: BigUint64Array): IdIndex {
  let n = 0;
  for (let d = 0; d < column.length; d++) if (!isClientKey(column[d]!)) n++;
  const ids = new BigUint64Array(n);
  const docs = new Uint32Array(n);
  let rising = true;
  for (let d = 0, k = 0; d < column.length; d++) {
    const id = column[d]!;
    if (isClientKey(id)) continue;
    if (k > 0 && id < ids[k - 1]!) rising = false;
    ids[k] = id;
    docs[k++] = d;
  }
  if (rising) return { ids, docs };
  const order = Uint32Array.from({ length: n }, (_, k) => k).sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : docs[a]! - docs[b]!));
  return { ids: BigUint64Array.from(order, (k) => ids[k]!), docs: Uint32Array.from(order, (k) => docs[k]!) };
}

/** The first doc (in doc order) holding generated id `id`, or -1. */
export function docOfId(index: IdIndex, id: bigint): number {
  const { ids, docs } = index;
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < ids.length && ids[lo] === id ? docs[lo]! : -1;
}
