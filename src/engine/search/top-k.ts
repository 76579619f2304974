/**
 * Per-segment top-k: the best `k` matches under a segment sort, as match indices in order. A
 * bounded binary heap over an Int32Array (worst kept match at the root) sees each match once;
 * when the order is the doc order itself (sorted by `_doc`, or by a `_ts`/`_lid` column that
 * never decreases over the segment's docs) the answer is a slice of the match set instead.
 */
import { type Deadline, TICK_MASK } from './deadline.js';
import { BLOCK_DOCS, type ColumnBlocks } from './column-blocks.js';
import { lowerBound } from './doc-set.js';
import type { SegmentSort } from './sort-keys.js';

/** The best `cap` matches seen so far, worst at the root of a binary heap over an Int32Array. */
class BoundedHeap {
  readonly heap: Int32Array;
  size = 0;

  constructor(
    private readonly sort: SegmentSort,
    readonly cap: number,
  ) {
    this.heap = new Int32Array(cap);
  }

  offer(i: number): void {
    const { heap, sort } = this;
    if (this.size < this.cap) {
      // sift up: parents are worse than or equal to their children
      let c = this.size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (sort.compare(heap[p]!, i) >= 0) break;
        heap[c] = heap[p]!;
        c = p;
      }
      heap[c] = i;
    } else if (sort.compare(i, heap[0]!) < 0) {
      const size = this.size;
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

  /** the kept matches, best first */
  sorted(): Int32Array {
    const best = Array.from(this.heap.subarray(0, this.size)).sort((a, b) => this.sort.compare(a, b));
    return Int32Array.from(best);
  }
}

export function topK(
  sort: SegmentSort,
  count: number,
  k: number,
  after: Float64Array | null,
  deadline: Deadline,
): Int32Array {
  const heap = new BoundedHeap(sort, Math.min(k, count));
  if (heap.cap === 0) return heap.heap;
  // worth it when there are many more matches than kept hits
  if (count > heap.cap * 4) sort.materialize();
  // visit matches best-first on ties, so that equal keys rarely displace a kept hit
  const backwards = sort.docOrderDescending;
  for (let step = 0; step < count; step++) {
    if ((step & TICK_MASK) === TICK_MASK) deadline.check();
    const i = backwards ? count - 1 - step : step;
    if (after !== null && !sort.isAfter(i, after)) continue;
    heap.offer(i);
  }
  return heap.sorted();
}

/**
 * Top-k when the first sort key is a numeric column with block bounds: blocks are visited from
 * the one whose docs could sort first, and the visit stops at the first block none of whose
 * docs can beat the worst kept match (its bound is strictly worse: ties go to later keys). For
 * the newest N of a common word that is a block or two instead of every match.
 */
export function topKByBlocks(
  sort: SegmentSort,
  docs: Uint32Array,
  k: number,
  after: Float64Array | null,
  blocks: ColumnBlocks,
  deadline: Deadline,
): Int32Array {
  const count = docs.length;
  const heap = new BoundedHeap(sort, Math.min(k, count));
  if (heap.cap === 0) return heap.heap;
  const primary = sort.keys[0]!;
  const n = blocks.min.length;
  // the smallest normalized value a doc of each block can have (see SegmentSort.value)
  const best = new Float64Array(n);
  for (let b = 0; b < n; b++) {
    const v = primary.desc ? -blocks.max[b]! : blocks.min[b]!;
    let bound = Number.isNaN(v) ? Infinity : v;
    if (blocks.missing[b] && primary.missingFirst) bound = -Infinity;
    best[b] = bound;
  }
  const backwards = sort.docOrderDescending;
  const order = Array.from({ length: n }, (_, b) => b).sort((a, b) => best[a]! - best[b]! || (backwards ? b - a : a - b));
  for (const b of order) {
    deadline.check();
    if (heap.size === heap.cap && sort.value(primary, heap.heap[0]!) < best[b]!) break;
    const from = lowerBound(docs, b * BLOCK_DOCS);
    const to = lowerBound(docs, (b + 1) * BLOCK_DOCS, from);
    for (let step = 0; step < to - from; step++) {
      const i = backwards ? to - 1 - step : from + step;
      if (after !== null && !sort.isAfter(i, after)) continue;
      heap.offer(i);
    }
  }
  return heap.sorted();
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
