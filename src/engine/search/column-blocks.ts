/**
 * Smallest and largest value of a numeric column per block of BLOCK_DOCS consecutive docs, so
 * that a top-k sorted on that column (newest N by `_ts`) visits the blocks that can hold the best
 * values first and stops once no unvisited block can beat what it kept. Logs arrive nearly in
 * time order, so a few blocks hold the newest docs even where concurrent writes interleave.
 * Computed on first use per segment and field; complete blocks are kept, the last partial block
 * of a growing segment is recomputed on each call.
 */
import type { SegmentReader } from '../segment-reader.js';

export const BLOCK_DOCS = 1024;

export interface ColumnBlocks {
  /** per block: smallest and largest value (NaN when no doc of the block has one) */
  min: Float64Array;
  max: Float64Array;
  /** per block: whether some doc of the block has no value */
  missing: Uint8Array;
}

interface Kept {
  /** weak: the reader's cache may drop the column, and this must not keep it alive */
  column: WeakRef<Float64Array>;
  full: number;
  min: Float64Array;
  max: Float64Array;
  missing: Uint8Array;
}

const cache = new WeakMap<SegmentReader, Map<string, Kept>>();

function fill(column: Float64Array, b: number, end: number, out: Kept | ColumnBlocks): void {
  let lo = Infinity;
  let hi = -Infinity;
  let missing = 0;
  for (let d = b * BLOCK_DOCS; d < end; d++) {
    const v = column[d]!;
    if (v !== v) missing = 1;
    else {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  out.min[b] = lo === Infinity ? NaN : lo;
  out.max[b] = hi === -Infinity ? NaN : hi;
  out.missing[b] = missing;
}

/** The bounds of the blocks of docs [0, limit) of a numeric column, or null when the field has none. */
export function columnBlocks(segment: SegmentReader, field: string, limit: number): ColumnBlocks | null {
  const column = segment.numeric(field);
  if (column === null || column.length < limit) return null;
  let perField = cache.get(segment);
  if (perField === undefined) {
    perField = new Map();
    cache.set(segment, perField);
  }
  const full = Math.floor(limit / BLOCK_DOCS);
  let kept = perField.get(field);
  // a column read anew (after a cache eviction) holds the same values; a longer one, more docs
  if (kept === undefined || kept.full < full) {
    const from = kept !== undefined && kept.column.deref() === column ? kept.full : 0;
    const next: Kept = { column: new WeakRef(column), full, min: new Float64Array(full), max: new Float64Array(full), missing: new Uint8Array(full) };
    if (kept !== undefined && from > 0) {
      next.min.set(kept.min);
      next.max.set(kept.max);
      next.missing.set(kept.missing);
    }
    for (let b = from; b < full; b++) fill(column, b, (b + 1) * BLOCK_DOCS, next);
    kept = next;
    perField.set(field, kept);
  }
  const n = Math.ceil(limit / BLOCK_DOCS);
  if (n === full && kept.min.length === full) return kept;
  const out: ColumnBlocks = { min: new Float64Array(n), max: new Float64Array(n), missing: new Uint8Array(n) };
  out.min.set(kept.min.subarray(0, full));
  out.max.set(kept.max.subarray(0, full));
  out.missing.set(kept.missing.subarray(0, full));
  if (n > full) fill(column, full, limit, out);
  return out;
}
