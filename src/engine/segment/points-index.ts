/**
 * The points index of a numeric column: the docs that have a value, ordered by value (then doc
 * id), beside their values. A range is then two binary searches and a slice, however large the
 * segment, where a column scan reads every doc. Built from the column on the first range query
 * on the field and kept with the reader's columns; segment files are immutable, so it never goes
 * stale. Building costs a sort of the distinct values and one pass over the docs.
 */
import type { PointsIndex } from '../segment-reader.js';

/** Index of the first value >= `v` (`strict`: > `v`) in ascending `values`, searched in [from, to). */
export function valueBound(values: Float64Array, v: number, strict: boolean, from = 0, to = values.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = values[mid]!;
    if (x < v || (strict && x === v)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function buildPointsIndex(column: Float64Array): PointsIndex {
  const n = column.length;
  let present = 0;
  for (let d = 0; d < n; d++) if (column[d] === column[d]) present++;
  const sorted = new Float64Array(present);
  for (let d = 0, k = 0; d < n; d++) {
    const v = column[d]!;
    if (v === v) sorted[k++] = v;
  }
  sorted.sort();
  // distinct values (0 and -0 are one value for ranges, as for every comparison)
  let distinct = 0;
  for (let i = 0; i < present; i++) if (i === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i]!;
  const keys = sorted.subarray(0, distinct);
  // a counting sort by rank keeps docs of one value in doc order
  const rankOf = new Uint32Array(n);
  const starts = new Uint32Array(distinct + 1);
  for (let d = 0; d < n; d++) {
    const v = column[d]!;
    if (v !== v) continue;
    const r = valueBound(keys, v, false);
    rankOf[d] = r;
    starts[r + 1]!++;
  }
  for (let r = 0; r < distinct; r++) starts[r + 1]! += starts[r]!;
  const docs = new Uint32Array(present);
  const values = new Float64Array(present);
  for (let d = 0; d < n; d++) {
    const v = column[d]!;
    if (v !== v) continue;
    const at = starts[rankOf[d]!]!++;
    docs[at] = d;
    values[at] = keys[rankOf[d]!]!;
  }
  return { values, docs };
}
