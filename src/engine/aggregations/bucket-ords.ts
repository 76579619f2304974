/**
 * Bucket ordinals of one multi-bucket aggregation in one segment: (parent bucket, key) → a
 * dense ordinal, in an open-addressing table of typed arrays. Sub-aggregations keep their state
 * in arrays indexed by these ordinals. Every growth is charged before it happens.
 */
import { allocate, grow, type Account } from './memory.js';

const F64 = new Float64Array(1);
const WORDS = new Uint32Array(F64.buffer);

function hashOf(parent: number, key: number): number {
  F64[0] = key;
  let h = Math.imul(WORDS[0]! ^ Math.imul(WORDS[1]!, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(parent, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}

export class BucketOrds {
  /** ordinal + 1 per slot, 0 when free */
  private slots: Int32Array;
  /** by ordinal */
  parents: Int32Array;
  keys: Float64Array;
  size = 0;

  constructor(
    private readonly account: Account,
    private readonly label: string,
  ) {
    this.slots = allocate(Int32Array, 64, account, label);
    this.parents = allocate(Int32Array, 32, account, label);
    this.keys = allocate(Float64Array, 32, account, label);
  }

  get bytes(): number {
    return this.slots.byteLength + this.parents.byteLength + this.keys.byteLength;
  }

  /** The ordinal of (parent, key), added when new. */
  add(parent: number, key: number): number {
    const k = key === 0 ? 0 : key; // -0 is 0
    const slots = this.slots;
    const mask = slots.length - 1;
    let i = hashOf(parent, k) & mask;
    for (;;) {
      const s = slots[i]!;
      if (s === 0) break;
      const ord = s - 1;
      if (this.keys[ord] === k && this.parents[ord] === parent) return ord;
      i = (i + 1) & mask;
    }
    const ord = this.size++;
    if (ord >= this.keys.length) {
      this.keys = grow(this.keys, ord + 1, this.account, this.label);
      this.parents = grow(this.parents, ord + 1, this.account, this.label);
    }
    this.keys[ord] = k;
    this.parents[ord] = parent;
    slots[i] = ord + 1;
    if (this.size * 2 > slots.length) this.rehash();
    return ord;
  }

  private rehash(): void {
    const old = this.slots;
    const slots = allocate(Int32Array, old.length * 2, this.account, this.label);
    const mask = slots.length - 1;
    for (let ord = 0; ord < this.size; ord++) {
      let i = hashOf(this.parents[ord]!, this.keys[ord]!) & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = ord + 1;
    }
    this.slots = slots;
    this.account.release(old.byteLength);
  }

  /**
   * Ordinals grouped by parent, each group sorted by key: ordinals `order[start[p] .. start[p+1])`
   * belong to parent p. Charged to the account.
   */
  groups(): { order: Int32Array; start: Int32Array } {
    const n = this.size;
    let maxParent = -1;
    for (let o = 0; o < n; o++) if (this.parents[o]! > maxParent) maxParent = this.parents[o]!;
    const order = allocate(Int32Array, n, this.account, this.label);
    const start = allocate(Int32Array, maxParent + 2, this.account, this.label);
    for (let o = 0; o < n; o++) order[o] = o;
    const parents = this.parents;
    const keys = this.keys;
    order.sort((a, b) => parents[a]! - parents[b]! || keys[a]! - keys[b]!);
    let at = 0;
    for (let p = 0; p <= maxParent; p++) {
      start[p] = at;
      while (at < n && parents[order[at]!] === p) at++;
    }
    start[maxParent + 1] = n;
    return { order, start };
  }
}
