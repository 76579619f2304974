/** Deleted docs (a search target's `deleted` list) left out of match sets. */

/** Sorted doc ids `docs` without those in sorted `deleted`; `docs` itself when none is. */
export function withoutDeleted(docs: Uint32Array, deleted: Uint32Array | undefined): Uint32Array {
  if (deleted === undefined || deleted.length === 0 || docs.length === 0) return docs;
  const out = new Uint32Array(docs.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    while (j < deleted.length && deleted[j]! < d) j++;
    if (j < deleted.length && deleted[j] === d) continue;
    out[n++] = d;
  }
  return n === docs.length ? docs : out.subarray(0, n);
}
