/**
 * Per-segment top-k: the best `k` matches under a segment sort, as match indices in order. A
 * bounded binary heap over an Int32Array (worst kept match at the root) sees each match once;
 * when the order is the doc order itself (sorted by `_doc`, or by a `_ts`/`_lid` column that
 * never decreases over the segment's docs) the answer is a slice of the match set instead.
 */
import { type Deadline, TICK_MASK } from './deadline.js';
import type { SegmentSort } from './sort-keys.js';

export function topK(
  sort: SegmentSort,
  count: number,
  k: number,
  after: Float64Array | null,
  deadline: Deadline,
): Int32Array {
  const heap = new Int32Array(Math.min(k, count));
  const cap = heap.length;
  if (cap === 0) return heap;
  // worth it when there are many more matches than kept hits
  if (count > cap * 4) sort.materialize();
  let size = 0;
  // visit matches best-first on ties, so that equal keys rarely displace a kept hit
  const backwards = sort.docOrderDescending;
  for (let step = 0; step < count; step++) {
    if ((step & TICK_MASK) === TICK_MASK) deadline.check();
    const i = backwards ? count - 1 - step : step;
    if (after !== null && !sort.isAfter(i, after)) continue;
    if (size < cap) {
      // sift up: parents are worse than or equal to their children
      let c = size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (sort.compare(heap[p]!, i) >= 0) break;
        heap[c] = heap[p]!;
        c = p;
      }
      heap[c] = i;
    } else if (sort.compare(i, heap[0]!) < 0) {
      let c = 0;
      for (;;) {
        const l = 2 * c + 1;
        if (l >= size) break;
        const r = l + 1;
        const worse = r < size && sort.compare(heap[r]!, heap[l]!) > 0 ? r : l;
        if (sort.compare(heap[worse]!, i) <= 0) break;
        heap[c] = heap[worse]!;
        c = worse;
      }
      heap[c] = i;
    }
  }
  const best = Array.from(heap.subarray(0, size)).sort((a, b) => sort.compare(a, b));
  return Int32Array.from(best);
}

/**
 * Top-k when the sort order equals match order (`ascending`) or its reverse: skip what
 * `search_after` excludes by binary search, then take `k` in order.
 */
export function topKInDocOrder(
  sort: SegmentSort,
  count: number,
  k: number,
  after: Float64Array | null,
  ascending: boolean,
): Int32Array {
  if (ascending) {
    let start = 0;
    if (after !== null) {
      // isAfter is false then true along the match order
      let lo = 0;
      let hi = count;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sort.isAfter(mid, after)) hi = mid;
        else lo = mid + 1;
      }
      start = lo;
    }
    const n = Math.max(0, Math.min(k, count - start));
    const out = new Int32Array(n);
    for (let j = 0; j < n; j++) out[j] = start + j;
    return out;
  }
  let end = count;
  if (after !== null) {
    // in reverse order the matches after the position are a prefix of the match set
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sort.isAfter(mid, after)) lo = mid + 1;
      else hi = mid;
    }
    end = lo;
  }
  const n = Math.max(0, Math.min(k, end));
  const out = new Int32Array(n);
  for (let j = 0; j < n; j++) out[j] = end - 1 - j;
  return out;
}
