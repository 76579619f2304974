/**
 * Many small growable Uint32 lists (one per term) packed in one big Uint32Array, so a rare term
 * costs a few bytes instead of a typed-array object. A full block moves to the top of the arena
 * with twice its capacity; when the arena is full it is copied, live blocks only, into a new one
 * twice the live size. Nothing already written is ever overwritten or reused, so a view returned
 * by `view()` stays valid (it keeps the old arena alive) while writes go on.
 */

const MIN_ARENA = 1 << 14;

export class BlockArena {
  private data: Uint32Array;
  private top = 0;
  private starts: Uint32Array;
  private lens: Uint32Array;
  private caps: Uint32Array;
  private blocks = 0;
  /** sum of block capacities: what a compaction keeps */
  private liveCap = 0;

  constructor(initialElements = MIN_ARENA) {
    this.data = new Uint32Array(Math.max(initialElements, 64));
    this.starts = new Uint32Array(64);
    this.lens = new Uint32Array(64);
    this.caps = new Uint32Array(64);
  }

  get blockCount(): number {
    return this.blocks;
  }

  /** bytes held by the arena and its block table */
  get byteSize(): number {
    return this.data.byteLength + this.starts.byteLength * 3;
  }

  newBlock(capacity: number): number {
    const b = this.blocks;
    if (b === this.starts.length) this.growTable();
    this.blocks++;
    this.caps[b] = 0;
    this.lens[b] = 0;
    this.starts[b] = this.alloc(capacity);
    this.caps[b] = capacity;
    this.liveCap += capacity;
    return b;
  }

  push(b: number, value: number): void {
    const len = this.lens[b]!;
    if (len === this.caps[b]!) this.growBlock(b);
    this.data[this.starts[b]! + len] = value;
    this.lens[b] = len + 1;
  }

  length(b: number): number {
    return this.lens[b]!;
  }

  last(b: number): number {
    return this.data[this.starts[b]! + this.lens[b]! - 1]!;
  }

  /** Overwrites the last element; only for an element written since the last view was taken. */
  setLast(b: number, value: number): void {
    this.data[this.starts[b]! + this.lens[b]! - 1] = value;
  }

  view(b: number): Uint32Array {
    const start = this.starts[b]!;
    return this.data.subarray(start, start + this.lens[b]!);
  }

  private growBlock(b: number): void {
    const cap = this.caps[b]!;
    const next = cap < 4 ? 4 : cap < 1 << 16 ? cap * 2 : cap + (cap >> 1);
    const start = this.starts[b]!;
    if (start + cap === this.top && start + next <= this.data.length) {
      // the block is the last one allocated: extend it where it is
      this.top = start + next;
    } else {
      const moved = this.alloc(next);
      const from = this.starts[b]!;
      const len = this.lens[b]!;
      const data = this.data;
      if (len < 32) for (let i = 0; i < len; i++) data[moved + i] = data[from + i]!;
      else data.copyWithin(moved, from, from + len);
      this.starts[b] = moved;
    }
    this.caps[b] = next;
    this.liveCap += next - cap;
  }

  /** Reserves `size` elements at the top, compacting into a new arena when full. */
  private alloc(size: number): number {
    if (this.top + size > this.data.length) this.compact(size);
    const at = this.top;
    this.top += size;
    return at;
  }

  private compact(extra: number): void {
    const old = this.data;
    const capacity = Math.max(MIN_ARENA, 2 * (this.liveCap + extra));
    const next = new Uint32Array(capacity);
    let top = 0;
    const { starts, lens, caps } = this;
    for (let b = 0; b < this.blocks; b++) {
      const from = starts[b]!;
      const len = lens[b]!;
      if (len < 32) for (let i = 0; i < len; i++) next[top + i] = old[from + i]!;
      else next.set(old.subarray(from, from + len), top);
      starts[b] = top;
      top += caps[b]!;
    }
    this.data = next;
    this.top = top;
  }

  private growTable(): void {
    const size = this.starts.length * 2;
    const grow = (a: Uint32Array): Uint32Array => {
      const n = new Uint32Array(size);
      n.set(a);
      return n;
    };
    this.starts = grow(this.starts);
    this.lens = grow(this.lens);
    this.caps = grow(this.caps);
  }
}
