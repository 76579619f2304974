/**
 * Reference-coded doc ids (docs mode REF, format version 2). In logs, the words of a line
 * template occur together: the docs of `http` are nearly those of `get`, `1` and `2024`. A term
 * whose docs are mostly inside the docs of an earlier term of the same field (a *base*) is
 * stored as positions within the base's doc list, plus the few docs outside it:
 *
 *   varint rank of the base (its index in the field's term dictionary, lower than the term's) ·
 *   varint m (docs inside the base) ·
 *   u8 mode · zero bytes to a 4-byte boundary · m indexes into the base's doc list, as a docs
 *   stream of that mode (PACKED) ·
 *   u8 mode · zero bytes to a 4-byte boundary · docFreq - m doc ids outside the base, likewise
 *
 * Bases are plain-coded terms (never references themselves), so a read decodes two lists at
 * most. The writer keeps the most frequent bases seen so far with a bitmap each, estimates the
 * overlap of a new term with every base from a sample of its docs, and keeps the reference only
 * when it is clearly smaller.
 */
import { ByteWriter } from './byte-writer.js';

/** Terms held by fewer docs than this are not worth the search. */
const MIN_REFERENCING_DOCS = 128;
/** A base must be held by this many docs at least. */
const MIN_BASE_DOCS = 512;
const MAX_BASES = 48;
const SAMPLE = 32;
/** The reference must save this share of the plain bytes. */
const MIN_SAVING = 0.2;

interface Base {
  rank: number;
  docs: Uint32Array;
  bitmap: Uint8Array;
}

/** Estimated bits of `n` ids spread over `universe` ids (near the entropy: split blocks). */
function estimatedBits(n: number, universe: number): number {
  if (n === 0) return 8;
  return n * (Math.log2(universe / n) + 1.6);
}

/** A reference choice: the base and the term's docs split into inside indexes and outside ids. */
export interface Reference {
  rank: number;
  inside: Uint32Array;
  outside: Uint32Array;
}

/** Picks bases and references for the terms of one field, written in term order. */
export class ReferenceChooser {
  private readonly bases: Base[] = [];

  constructor(private readonly numDocs: number) {}

  /**
   * The best reference for a term's docs, or null; `plainBytes` is what the plain stream takes.
   * The caller encodes the reference and keeps it only when smaller (see `worthIt`).
   */
  choose(docs: Uint32Array, plainBytes: number): Reference | null {
    const n = docs.length;
    if (n < MIN_REFERENCING_DOCS || this.bases.length === 0) return null;
    let best: Base | null = null;
    let bestBits = Math.min(plainBytes * 8, estimatedBits(n, this.numDocs)) * (1 - MIN_SAVING);
    for (const base of this.bases) {
      let hits = 0;
      for (let s = 0; s < SAMPLE; s++) {
        const d = docs[Math.floor(((s + 0.5) * n) / SAMPLE)]!;
        if (base.bitmap[d >>> 3]! & (1 << (d & 7))) hits++;
      }
      const inside = Math.round((hits / SAMPLE) * n);
      const bits = estimatedBits(inside, base.docs.length) + estimatedBits(n - inside, this.numDocs);
      if (bits < bestBits) {
        bestBits = bits;
        best = base;
      }
    }
    return best === null ? null : split(docs, best);
  }

  /** True when the reference's bytes save enough over the plain ones. */
  static worthIt(referenceBytes: number, plainBytes: number): boolean {
    return referenceBytes <= plainBytes * (1 - MIN_SAVING);
  }

  /** Records a plain-coded term of rank `rank` as a possible base (`docs` is kept, not copied). */
  offer(rank: number, docs: Uint32Array): void {
    if (docs.length < MIN_BASE_DOCS) return;
    let bitmap: Uint8Array;
    if (this.bases.length === MAX_BASES) {
      let smallest = 0;
      for (let i = 1; i < MAX_BASES; i++) if (this.bases[i]!.docs.length < this.bases[smallest]!.docs.length) smallest = i;
      const evicted = this.bases[smallest]!;
      if (evicted.docs.length >= docs.length) return;
      this.bases.splice(smallest, 1);
      // reuse the evicted base's bitmap: clearing its bits costs its docs, not the whole bitmap
      bitmap = evicted.bitmap;
      for (let i = 0; i < evicted.docs.length; i++) bitmap[evicted.docs[i]! >>> 3] = 0;
    } else {
      bitmap = new Uint8Array((this.numDocs + 7) >>> 3);
    }
    for (let i = 0; i < docs.length; i++) bitmap[docs[i]! >>> 3]! |= 1 << (docs[i]! & 7);
    this.bases.push({ rank, docs, bitmap });
  }
}

/** Splits sorted `docs` into indexes of the docs inside `base` and the docs outside it. */
function split(docs: Uint32Array, base: Base): Reference {
  const inside = new Uint32Array(docs.length);
  const outside = new Uint32Array(docs.length);
  let ni = 0;
  let no = 0;
  const b = base.docs;
  const bitmap = base.bitmap;
  let j = 0;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    if (!(bitmap[d >>> 3]! & (1 << (d & 7)))) {
      outside[no++] = d;
      continue;
    }
    // galloping search for d in the base from where the last one was found
    let step = 1;
    while (j + step < b.length && b[j + step]! < d) step *= 2;
    let lo = j;
    let hi = Math.min(b.length - 1, j + step);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (b[mid]! < d) lo = mid + 1;
      else hi = mid;
    }
    j = lo;
    inside[ni++] = j;
  }
  return { rank: base.rank, inside: inside.subarray(0, ni), outside: outside.subarray(0, no) };
}

/** Appends a REF docs part; `encodeDocs` appends one docs stream and returns its mode. */
export function encodeReference(out: ByteWriter, ref: Reference, encodeDocs: (w: ByteWriter, docs: Uint32Array) => number): void {
  out.varint(ref.rank);
  out.varint(ref.inside.length);
  for (const part of [ref.inside, ref.outside]) {
    // a docs stream's packed words are aligned from its own start: encode it apart, then copy
    const w = new ByteWriter(64 + part.length * 2);
    const mode = part.length === 0 ? 0 : encodeDocs(w, part);
    out.u8(mode);
    out.align4();
    out.bytes(w.view8());
  }
}

/** Merges two sorted, disjoint doc lists into one. */
export function mergeDocs(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i]! < b[j]! ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}
