/**
 * Sorting a set of doc ids that arrives in another order (a points index gives docs by value):
 * small sets with the typed-array sort, larger ones through a bitset over the doc range, which
 * costs a pass over `limit / 32` words instead of a comparison sort.
 */

const SORT_BELOW = 512;

/** The ids of `docs` (distinct, any order) below `limit`, ascending, in a new array. */
export function sortedBelow(docs: Uint32Array, limit: number): Uint32Array {
  const n = docs.length;
  if (n <= SORT_BELOW) {
    const out = new Uint32Array(n);
    let k = 0;
    for (let i = 0; i < n; i++) if (docs[i]! < limit) out[k++] = docs[i]!;
    return out.subarray(0, k).sort();
  }
  const bits = new Uint32Array((limit + 31) >>> 5);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const d = docs[i]!;
    if (d < limit) {
      bits[d >>> 5]! |= 1 << (d & 31);
      count++;
    }
  }
  const out = new Uint32Array(count);
  let k = 0;
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w]!;
    while (x !== 0) {
      const low = x & -x;
      out[k++] = (w << 5) + 31 - Math.clz32(low);
      x ^= low;
    }
  }
  return out;
}
