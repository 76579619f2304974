/**
 * Whether a sort is the segment's doc order (or its reverse): true for `_doc`, and for `_ts` or
 * `_lid` when that column never decreases over the visible docs, which holds for segments
 * written in arrival order. Checked once per segment and column, then extended as a growing
 * segment gains docs.
 */
import type { SegmentReader } from '../segment-reader.js';
import { comparisonKeys, type EffectiveSortKey } from './sort-keys.js';
import type { SortOrder } from './types.js';

interface Monotonicity {
  checked: number;
  ok: boolean;
}

const cache = new WeakMap<SegmentReader, Map<string, Monotonicity>>();

/** True when `column[0..limit)` is non-decreasing (and has no missing values). */
export function isNonDecreasing(segment: SegmentReader, field: string, limit: number): boolean {
  let perField = cache.get(segment);
  if (perField === undefined) {
    perField = new Map();
    cache.set(segment, perField);
  }
  let state = perField.get(field);
  if (state === undefined) {
    state = { checked: 0, ok: true };
    perField.set(field, state);
  }
  if (!state.ok) return false;
  if (limit <= state.checked) return true;
  const col = segment.numeric(field);
  if (col === null || col.length < limit) return false;
  let i = Math.max(1, state.checked);
  if (limit > 0 && Number.isNaN(col[0]!)) state.ok = false;
  for (; state.ok && i < limit; i++) {
    if (!(col[i - 1]! <= col[i]!)) state.ok = false;
  }
  if (state.ok) state.checked = limit;
  return state.ok;
}

/** The doc-order direction that equals this sort in the segment, or null when it does not. */
export function docOrderDirection(
  keys: readonly EffectiveSortKey[],
  segment: SegmentReader,
  limit: number,
): SortOrder | null {
  const cmp = comparisonKeys(keys);
  const dir = cmp[0]!.order;
  for (const k of cmp) {
    if (k.order !== dir) return null;
    if (k.field === '_doc') return dir;
    if ((k.field === '_ts' || k.field === '_lid') && isNonDecreasing(segment, k.field, limit)) continue;
    return null;
  }
  return null;
}
