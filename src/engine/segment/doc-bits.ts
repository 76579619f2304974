/**
 * Bitsets of dense decoded posting lists: bit d of word d >>> 5 set for each doc d of the list.
 * A reader builds one when it decodes a list holding at least one doc in DENSE_RATIO of the
 * segment (the bitset is then no larger than the list), and keeps it with the list in its
 * reader cache. An intersection with such a list then tests each doc of the other list with
 * one load instead of walking or searching the dense list: that is the skip data of a
 * conjunction or a phrase, built in memory rather than stored (see docs/segment-format.md).
 *
 * The bitset is found from the list itself (the same Uint32Array object, never a view of it),
 * so it goes wherever the list goes and is collected with it.
 */
const bitsOf = new WeakMap<Uint32Array, Uint32Array>();

/** A list needs at least one doc in this many of the segment to get a bitset. */
const DENSE_RATIO = 32;
/** Shorter lists merge as fast as they probe. */
const MIN_DOCS = 512;

/** Bytes the bitset of `docs` would take in a segment of `numDocs`; 0 when it gets none. */
export function docBitsBytes(docs: Uint32Array, numDocs: number): number {
  if (docs.length < MIN_DOCS || docs.length * DENSE_RATIO < numDocs) return 0;
  return ((numDocs + 31) >>> 5) * 4;
}

/** Builds and attaches the bitset of a sorted list of docs below `numDocs` (when dense enough). */
export function attachDocBits(docs: Uint32Array, numDocs: number): void {
  if (docBitsBytes(docs, numDocs) === 0 || bitsOf.has(docs)) return;
  const words = new Uint32Array((numDocs + 31) >>> 5);
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    words[d >>> 5]! |= 1 << (d & 31);
  }
  bitsOf.set(docs, words);
}

/** The bitset attached to this list, if any. */
export function docBits(docs: Uint32Array): Uint32Array | undefined {
  return bitsOf.get(docs);
}
