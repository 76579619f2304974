/**
 * Many growable Uint32 lists (one per term) packed in one big Uint32Array, so a rare term costs
 * a few bytes instead of a typed-array object. The arena keeps only where each block starts; the
 * owner knows each block's length, and a block's capacity follows from it (the next power of two,
 * at least `minCapacity`). A full block moves to the top of the arena with twice the room; when
 * the arena is full, its live blocks are copied into a new one half again their size. A block
 * past `BIG_BLOCK` elements gets a Uint32Array of its own growing by half, so the few long lists
 * (frequent terms) neither churn nor bloat the arena.
 *
 * Nothing already written is ever overwritten or reused: a view stays valid (it keeps the old
 * array alive) while writes go on.
 */

import { grown } from './growable.js';
import { newU32 } from './memory.js';

const MIN_ARENA = 1 << 14;
/** capacity from which a block gets its own array (a power of two); the arena stays below 2^31 elements */
const BIG_BLOCK = 2048;
/** `starts` flag of a block held in `own`; the rest of the value indexes `own` */
const OWN_FLAG = 0x80000000;

/** A BlockArena's arrays, copied for another thread. */
export interface BlockArenaSnapshot {
  data: Uint32Array;
  starts: Uint32Array;
  own: Uint32Array[];
}

export class BlockArena {
  private data: Uint32Array = newU32(MIN_ARENA);
  private top = 0;
  private starts: Uint32Array = newU32(256);
  private blocks = 0;
  /** sum of capacities of the blocks in the arena: what a compaction keeps */
  private liveCap = 0;
  private readonly own: Uint32Array[] = [];
  private ownBytes = 0;

  constructor(
    private readonly minCapacity: number,
    /** current length of a block, as its owner counts it */
    private readonly lengthOf: (block: number) => number,
  ) {}

  /** bytes held by the arena, its table and its own-array blocks */
  get byteSize(): number {
    return this.data.byteLength + this.starts.byteLength + this.ownBytes;
  }

  snapshot(): BlockArenaSnapshot {
    return { data: this.data.slice(0, this.top), starts: this.starts.slice(0, this.blocks), own: this.own.map((a) => a.slice()) };
  }

  /**
   * The arrays as they are now, without a copy: valid for reading while no write happens, and
   * for good once the arena takes no more (`starts` is rewritten in place by later writes).
   */
  shared(): BlockArenaSnapshot {
    return { data: this.data.subarray(0, this.top), starts: this.starts.subarray(0, this.blocks), own: this.own.slice() };
  }

  /** A read-only arena over a snapshot's arrays. */
  static restore(s: BlockArenaSnapshot, minCapacity: number, lengthOf: (block: number) => number): BlockArena {
    const arena = new BlockArena(minCapacity, lengthOf);
    arena.data = s.data;
    arena.top = s.data.length;
    arena.starts = s.starts;
    arena.blocks = s.starts.length;
    arena.own.push(...s.own);
    return arena;
  }

  /** Adds an empty block; block ids are dense from 0. */
  newBlock(): number {
    const b = this.blocks;
    if (b === this.starts.length) {
      const starts = newU32(b + (b >> 1));
      starts.set(this.starts);
      this.starts = starts;
    }
    this.blocks++;
    this.starts[b] = this.alloc(this.minCapacity);
    this.liveCap += this.minCapacity;
    return b;
  }

  /** Appends `value` to block `b`, which holds `len` elements. */
  push(b: number, len: number, value: number): void {
    let start = this.starts[b]!;
    if (start >= OWN_FLAG) {
      let own = this.own[start - OWN_FLAG]!;
      if (len === own.length) own = this.growOwn(start - OWN_FLAG);
      own[len] = value;
      return;
    }
    if (len >= this.minCapacity && (len & (len - 1)) === 0) {
      start = this.growBlock(b, len);
      if (start >= OWN_FLAG) {
        this.own[start - OWN_FLAG]![len] = value;
        return;
      }
    }
    this.data[start + len] = value;
  }

  get(b: number, index: number): number {
    const start = this.starts[b]!;
    return start >= OWN_FLAG ? this.own[start - OWN_FLAG]![index]! : this.data[start + index]!;
  }

  /** Overwrites one element; only for an element written since the last view was taken. */
  set(b: number, index: number, value: number): void {
    const start = this.starts[b]!;
    if (start >= OWN_FLAG) this.own[start - OWN_FLAG]![index] = value;
    else this.data[start + index] = value;
  }

  view(b: number, len: number): Uint32Array {
    const start = this.starts[b]!;
    if (start >= OWN_FLAG) return this.own[start - OWN_FLAG]!.subarray(0, len);
    return this.data.subarray(start, start + len);
  }

  private capacity(len: number): number {
    return len <= this.minCapacity ? this.minCapacity : 2 ** (32 - Math.clz32(len - 1));
  }

  /** Gives full block `b` (holding `len`, its capacity) twice the room; returns its new start. */
  private growBlock(b: number, len: number): number {
    const start = this.starts[b]!;
    const next = len * 2;
    if (next > BIG_BLOCK) {
      const own = newU32(next);
      own.set(this.data.subarray(start, start + len));
      const marker = OWN_FLAG + this.own.length;
      this.own.push(own);
      this.ownBytes += own.byteLength;
      this.starts[b] = marker;
      this.liveCap -= len;
      return marker;
    }
    this.liveCap += next - len;
    if (start + len === this.top && start + next <= this.data.length) {
      // the block is the last one allocated: extend it where it is
      this.top = start + next;
      return start;
    }
    const moved = this.alloc(next);
    const from = this.starts[b]!;
    const data = this.data;
    if (len < 32) for (let i = 0; i < len; i++) data[moved + i] = data[from + i]!;
    else data.copyWithin(moved, from, from + len);
    this.starts[b] = moved;
    return moved;
  }

  private growOwn(index: number): Uint32Array {
    const own = this.own[index]!;
    const larger = grown(own, own.length + (own.length >> 1));
    this.own[index] = larger;
    this.ownBytes += larger.byteLength - own.byteLength;
    return larger;
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
    // liveCap already counts a block being grown at its new size: room enough for the move
    const next = newU32(Math.max(MIN_ARENA, Math.ceil(1.5 * (this.liveCap + extra))));
    const starts = this.starts;
    let top = 0;
    for (let b = 0; b < this.blocks; b++) {
      const from = starts[b]!;
      if (from >= OWN_FLAG) continue;
      const len = this.lengthOf(b);
      if (len < 32) for (let i = 0; i < len; i++) next[top + i] = old[from + i]!;
      else next.set(old.subarray(from, from + len), top);
      starts[b] = top;
      top += this.capacity(len);
    }
    this.data = next;
    this.top = top;
  }
}
