/**
 * 32-bit MurmurHash3 of the values cardinality counts: strings by UTF-16 code unit, numbers by
 * the eight bytes of their float64 form (so 1 and 1.0 are one value, as they are one column value).
 */

const F64 = new Float64Array(1);
const WORDS = new Uint32Array(F64.buffer);

function mixK(k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, 0x1b873593);
}

function mixH(h: number, k: number): number {
  h ^= mixK(k);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function finish(h: number, length: number): number {
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function hashString(s: string, seed = 0): number {
  let h = seed | 0;
  const n = s.length;
  let i = 0;
  for (; i + 1 < n; i += 2) h = mixH(h, s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16));
  if (i < n) h ^= mixK(s.charCodeAt(i));
  return finish(h, n * 2);
}

export function hashNumber(v: number, seed = 0): number {
  F64[0] = v === 0 ? 0 : v; // -0 and 0 are one value
  let h = mixH(seed | 0, WORDS[0]!);
  h = mixH(h, WORDS[1]!);
  return finish(h, 8);
}
