/**
 * Operations on doc-id sets held as sorted, duplicate-free Uint32Arrays. Results may be views
 * of their inputs (never modified afterwards), so callers treat every set as read-only.
 */
import type { Deadline } from './deadline.js';
import { docBits } from '../segment/index.js';

export const EMPTY_DOCS: Uint32Array = new Uint32Array(0);

// below this length ratio a linear merge beats galloping
const GALLOP_RATIO = 24;

/** First index `i >= from` with `docs[i] >= value` (docs.length when none). */
export function lowerBound(docs: Uint32Array, value: number, from = 0): number {
  let lo = from;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Like lowerBound, probing 1, 2, 4, ... steps ahead first: cheap when the answer is near `from`. */
export function gallop(docs: Uint32Array, value: number, from: number): number {
  const n = docs.length;
  if (from >= n || docs[from]! >= value) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < n && docs[hi]! < value) {
    lo = hi;
    step <<= 1;
    hi = lo + step;
  }
  if (hi > n) hi = n;
  lo++;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The docs below `limit`, as a view. */
export function clip(docs: Uint32Array, limit: number): Uint32Array {
  const n = docs.length;
  if (n === 0 || docs[n - 1]! < limit) return docs;
  return docs.subarray(0, lowerBound(docs, limit));
}

/** 0, 1, ..., limit - 1. */
export function allDocs(limit: number): Uint32Array {
  const out = new Uint32Array(limit);
  for (let i = 0; i < limit; i++) out[i] = i;
  return out;
}

export function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length > b.length) {
    const t = a;
    a = b;
    b = t;
  }
  const na = a.length;
  const nb = b.length;
  if (na === 0) return EMPTY_DOCS;
  if (na === nb && a === b) return a;
  const out = new Uint32Array(na);
  let k = 0;
  const bits = docBits(b);
  if (bits !== undefined) {
    // a dense list with its bitset: one load per doc of the shorter list, no walk, no search
    for (let i = 0; i < na; i++) {
      const x = a[i]!;
      out[k] = x;
      k += (bits[x >>> 5]! >>> (x & 31)) & 1;
    }
  } else if (nb > na * GALLOP_RATIO) {
    let j = 0;
    for (let i = 0; i < na && j < nb; i++) {
      const x = a[i]!;
      j = gallop(b, x, j);
      if (j < nb && b[j] === x) out[k++] = x;
    }
  } else {
    // branch-free steps: which list moves on is data-dependent and mispredicts about half the
    // time; writing every candidate and advancing the output only on a match does not
    let i = 0;
    let j = 0;
    while (i < na && j < nb) {
      const x = a[i]!;
      const y = b[j]!;
      out[k] = x;
      k += +(x === y);
      i += +(x <= y);
      j += +(y <= x);
    }
  }
  return k === na ? a : out.subarray(0, k);
}

/** Intersection of all lists, smallest first; an empty input list gives the empty set. */
export function intersectMany(lists: readonly Uint32Array[]): Uint32Array {
  if (lists.length === 0) return EMPTY_DOCS;
  const sorted = [...lists].sort((x, y) => x.length - y.length);
  let cur = sorted[0]!;
  for (let i = 1; i < sorted.length && cur.length > 0; i++) cur = intersect(cur, sorted[i]!);
  return cur;
}

export function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const na = a.length;
  const nb = b.length;
  const out = new Uint32Array(na + nb);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < na && j < nb) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) {
      out[k++] = x;
      i++;
    } else if (x > y) {
      out[k++] = y;
      j++;
    } else {
      out[k++] = x;
      i++;
      j++;
    }
  }
  while (i < na) out[k++] = a[i++]!;
  while (j < nb) out[k++] = b[j++]!;
  return out.subarray(0, k);
}

/**
 * Union of many lists of docs below `limit`: pairwise merges for a few lists, a bitset over
 * `[0, limit)` when many lists (term expansions) would make repeated merging quadratic.
 */
export function unionMany(lists: readonly Uint32Array[], limit: number, deadline?: Deadline): Uint32Array {
  const nonEmpty = lists.filter((l) => l.length > 0);
  if (nonEmpty.length === 0) return EMPTY_DOCS;
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  if (nonEmpty.length <= 4) {
    let cur = nonEmpty[0]!;
    for (let i = 1; i < nonEmpty.length; i++) cur = union(cur, nonEmpty[i]!);
    return cur;
  }
  let total = 0;
  for (const l of nonEmpty) total += l.length;
  if (total * 8 < limit) {
    // sparse: concatenate, sort, drop duplicates
    const all = new Uint32Array(total);
    let k = 0;
    for (const l of nonEmpty) {
      all.set(l, k);
      k += l.length;
    }
    all.sort();
    let w = 0;
    for (let i = 0; i < total; i++) {
      const x = all[i]!;
      if (w === 0 || all[w - 1] !== x) all[w++] = x;
    }
    return all.subarray(0, w);
  }
  const words = new Uint32Array((limit + 31) >>> 5);
  let done = 0;
  for (const l of nonEmpty) {
    for (let i = 0; i < l.length; i++) {
      const d = l[i]!;
      words[d >>> 5]! |= 1 << (d & 31);
    }
    done += l.length;
    if (done > 0xffff) {
      deadline?.check();
      done = 0;
    }
  }
  return bitsToDocs(words, limit);
}

/** The set bits of a bitset, in ascending order, as doc ids below `limit`. */
export function bitsToDocs(words: Uint32Array, limit: number): Uint32Array {
  let count = 0;
  for (let w = 0; w < words.length; w++) count += popcount(words[w]!);
  const out = new Uint32Array(count);
  let k = 0;
  for (let w = 0; w < words.length; w++) {
    let bits = words[w]!;
    const base = w << 5;
    while (bits !== 0) {
      const low = bits & -bits;
      const d = base + 31 - Math.clz32(low);
      if (d < limit) out[k++] = d;
      bits ^= low;
    }
  }
  return k === count ? out : out.subarray(0, k);
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Docs of `a` not in `b`. */
export function difference(a: Uint32Array, b: Uint32Array): Uint32Array {
  const na = a.length;
  const nb = b.length;
  if (na === 0 || nb === 0) return a;
  const out = new Uint32Array(na);
  let k = 0;
  const bits = docBits(b);
  if (bits !== undefined) {
    for (let i = 0; i < na; i++) {
      const x = a[i]!;
      out[k] = x;
      k += 1 - ((bits[x >>> 5]! >>> (x & 31)) & 1);
    }
    return k === na ? a : out.subarray(0, k);
  }
  let j = 0;
  const galloping = nb > na * GALLOP_RATIO;
  for (let i = 0; i < na; i++) {
    const x = a[i]!;
    if (galloping) j = gallop(b, x, j);
    else while (j < nb && b[j]! < x) j++;
    if (j < nb && b[j] === x) continue;
    out[k++] = x;
  }
  return k === na ? a : out.subarray(0, k);
}

/** `[0, limit)` minus `b`. */
export function complement(b: Uint32Array, limit: number): Uint32Array {
  const bc = clip(b, limit);
  const out = new Uint32Array(limit - bc.length);
  let k = 0;
  let j = 0;
  for (let d = 0; d < limit; d++) {
    if (j < bc.length && bc[j] === d) {
      j++;
      continue;
    }
    out[k++] = d;
  }
  return out;
}

/**
 * Docs whose summed weight over the lists holding them reaches `min` (minimum_should_match).
 * Counts live in one typed array over `[0, limit)`.
 */
export function atLeast(
  lists: readonly Uint32Array[],
  weights: readonly number[],
  min: number,
  limit: number,
  deadline?: Deadline,
): Uint32Array {
  let total = 0;
  for (const w of weights) total += w;
  if (min > total) return EMPTY_DOCS;
  const counts = total < 256 ? new Uint8Array(limit) : new Uint32Array(limit);
  let reached = 0;
  let done = 0;
  for (let l = 0; l < lists.length; l++) {
    const list = lists[l]!;
    const w = weights[l]!;
    for (let i = 0; i < list.length; i++) {
      const d = list[i]!;
      const before = counts[d]!;
      counts[d] = before + w;
      if (before < min && before + w >= min) reached++;
    }
    done += list.length;
    if (done > 0xffff) {
      deadline?.check();
      done = 0;
    }
  }
  const out = new Uint32Array(reached);
  let k = 0;
  for (let d = 0; d < limit && k < reached; d++) if (counts[d]! >= min) out[k++] = d;
  return out;
}
