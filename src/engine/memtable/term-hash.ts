/**
 * The memtable's term dictionary: (field, term bytes) → term number, an open-addressing hash
 * table over typed arrays. Term bytes live back to back in one byte arena, so a million distinct
 * tokens cost a few typed arrays instead of a million JS strings and Map entries. Term numbers
 * are dense from 0 in order of first sight; each carries a payload (the term id in a postings
 * store) and the term's index within its field.
 *
 * Keys are bytes as `encodeTerm` makes them (UTF-8, or a UTF-16 form for strings with lone
 * surrogates), so a term found while scanning a request body and the same term given as a JS
 * string by a query meet in the same slot.
 */

import { grown } from './growable.js';

const EMPTY_SLOT = 0;
const MIN_TABLE = 1 << 10;
const MIN_ARENA = 1 << 16;

/** FNV-1a over bytes [start, end), then mixed with the field number. */
export function hashBytes(bytes: Uint8Array, start: number, end: number, field: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return finishHash(h, field);
}

/** Mixes the field number into a running FNV-1a hash: the same bytes in two fields differ. */
export function finishHash(h: number, field: number): number {
  h = Math.imul(h ^ field, 0x9e3779b1);
  return h ^ (h >>> 15);
}

/** A TermHash's arrays, copied: it crosses to another thread and is restored there. */
export interface TermHashSnapshot {
  arena: Uint8Array<ArrayBuffer>;
  starts: Uint32Array<ArrayBuffer>;
  lengths: Uint32Array<ArrayBuffer>;
  fieldOf: Uint32Array<ArrayBuffer>;
  hashes: Int32Array<ArrayBuffer>;
  payloads: Int32Array<ArrayBuffer>;
  localIndexes: Int32Array<ArrayBuffer>;
  table: Int32Array<ArrayBuffer>;
  count: number;
}

export class TermHash {
  /** term bytes, back to back */
  private arena = new Uint8Array(MIN_ARENA);
  private arenaTop = 0;
  /** per term: arena offset, byte length, field, hash, payload, index within its field */
  private starts = new Uint32Array(256);
  private lengths = new Uint32Array(256);
  private fieldOf = new Uint32Array(256);
  private hashes = new Int32Array(256);
  private payloads = new Int32Array(256);
  private localIndexes = new Int32Array(256);
  /**
   * Two words per slot: term number + 1 (0: empty) and the term's hash, so that a probe past
   * another term is decided in the table without touching the per-term arrays
   */
  private table = new Int32Array(MIN_TABLE * 2);
  private mask = MIN_TABLE - 1;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get byteSize(): number {
    return (
      this.arena.byteLength +
      this.table.byteLength +
      this.starts.byteLength * 6 // starts, lengths, fields, hashes, payloads, local indexes
    );
  }

  /** Term number of the bytes in `field`, or -1. `hash` is `hashBytes(bytes, start, end, field)`. */
  find(field: number, bytes: Uint8Array, start: number, end: number, hash: number): number {
    const table = this.table;
    const mask = this.mask;
    const len = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = table[slot * 2]!;
      if (entry === EMPTY_SLOT) return -1;
      if (table[slot * 2 + 1] !== hash) continue;
      const t = entry - 1;
      if (this.lengths[t] === len && this.fieldOf[t] === field && this.sameBytes(t, bytes, start, len)) return t;
    }
  }

  /** Adds a term known to be absent; returns its term number. */
  insert(field: number, bytes: Uint8Array, start: number, end: number, hash: number, payload: number, localIndex: number): number {
    if ((this.count + 1) * 2 > this.mask + 1) this.rehash((this.mask + 1) * 2);
    if (this.count === this.starts.length) this.growTerms();
    const len = end - start;
    if (this.arenaTop + len > this.arena.length) this.growArena(len);
    const t = this.count++;
    this.arena.set(bytes.subarray(start, end), this.arenaTop);
    this.starts[t] = this.arenaTop;
    this.lengths[t] = len;
    this.arenaTop += len;
    this.fieldOf[t] = field;
    this.hashes[t] = hash;
    this.payloads[t] = payload;
    this.localIndexes[t] = localIndex;
    const mask = this.mask;
    let slot = hash & mask;
    while (this.table[slot * 2] !== EMPTY_SLOT) slot = (slot + 1) & mask;
    this.table[slot * 2] = t + 1;
    this.table[slot * 2 + 1] = hash;
    return t;
  }

  snapshot(): TermHashSnapshot {
    const n = this.count;
    return {
      arena: this.arena.slice(0, this.arenaTop),
      starts: this.starts.slice(0, n),
      lengths: this.lengths.slice(0, n),
      fieldOf: this.fieldOf.slice(0, n),
      hashes: this.hashes.slice(0, n),
      payloads: this.payloads.slice(0, n),
      localIndexes: this.localIndexes.slice(0, n),
      table: this.table.slice(),
      count: n,
    };
  }

  /** A read-only dictionary over a snapshot's arrays (they are used, not copied). */
  static restore(s: TermHashSnapshot): TermHash {
    const h = new TermHash();
    h.arena = s.arena;
    h.arenaTop = s.arena.length;
    h.starts = s.starts;
    h.lengths = s.lengths;
    h.fieldOf = s.fieldOf;
    h.hashes = s.hashes;
    h.payloads = s.payloads;
    h.localIndexes = s.localIndexes;
    h.table = s.table;
    h.mask = s.table.length / 2 - 1;
    h.count = s.count;
    return h;
  }

  payload(t: number): number {
    return this.payloads[t]!;
  }

  localIndex(t: number): number {
    return this.localIndexes[t]!;
  }

  /** The term's bytes as a view into the arena (valid until the next insert). */
  bytesOf(t: number): Uint8Array {
    const start = this.starts[t]!;
    return this.arena.subarray(start, start + this.lengths[t]!);
  }

  private sameBytes(t: number, bytes: Uint8Array, start: number, len: number): boolean {
    const arena = this.arena;
    const at = this.starts[t]!;
    for (let i = 0; i < len; i++) if (arena[at + i] !== bytes[start + i]) return false;
    return true;
  }

  private rehash(slots: number): void {
    const table = new Int32Array(slots * 2);
    const mask = slots - 1;
    for (let t = 0; t < this.count; t++) {
      const hash = this.hashes[t]!;
      let slot = hash & mask;
      while (table[slot * 2] !== EMPTY_SLOT) slot = (slot + 1) & mask;
      table[slot * 2] = t + 1;
      table[slot * 2 + 1] = hash;
    }
    this.table = table;
    this.mask = mask;
  }

  private growTerms(): void {
    const n = this.starts.length * 2;
    this.starts = grown(this.starts, n);
    this.lengths = grown(this.lengths, n);
    this.fieldOf = grown(this.fieldOf, n);
    this.hashes = grown(this.hashes, n);
    this.payloads = grown(this.payloads, n);
    this.localIndexes = grown(this.localIndexes, n);
  }

  private growArena(extra: number): void {
    let size = this.arena.length * 2;
    while (size < this.arenaTop + extra) size *= 2;
    this.arena = grown(this.arena, size);
  }
}
