/**
 * The best k of n bucket positions under a comparator, with a heap of k entries (n can be a
 * million terms; k is a response size).
 */
import { allocate, type Account } from './memory.js';

/** Positions i < n with accept(i), best first (cmp < 0 means better), at most k of them. */
export function selectTop(n: number, accept: (i: number) => boolean, cmp: (a: number, b: number) => number, k: number, account: Account, label: string): { top: Int32Array; accepted: number } {
  const heap = allocate(Int32Array, Math.max(0, Math.min(k, n)), account, label);
  let size = 0;
  let accepted = 0;
  // a max-heap on "worse": the root is the worst kept position
  const worse = (a: number, b: number) => cmp(heap[a]!, heap[b]!) > 0;
  const swap = (a: number, b: number) => {
    const t = heap[a]!;
    heap[a] = heap[b]!;
    heap[b] = t;
  };
  const down = (from: number) => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && worse(l, m)) m = l;
      if (r < size && worse(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (let i = 0; i < n; i++) {
    if (!accept(i)) continue;
    accepted++;
    if (heap.length === 0) continue;
    if (size < heap.length) {
      heap[size] = i;
      let c = size++;
      while (c > 0) {
        const parent = (c - 1) >> 1;
        if (!worse(c, parent)) break;
        swap(c, parent);
        c = parent;
      }
    } else if (cmp(i, heap[0]!) < 0) {
      heap[0] = i;
      down(0);
    }
  }
  const top = heap.subarray(0, size).sort(cmp);
  return { top, accepted };
}
