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
import { newI32, newU8 } from './memory.js';

const EMPTY_SLOT = 0;
const MIN_TABLE = 1 << 10;
const MIN_ARENA = 1 << 16;

/**
 * A term's facts side by side in one record of `RECORD` words (a probe that finds its term reads
 * one cache line instead of one per array): arena offset, byte length, field, hash, payload,
 * index within its field
 */
const RECORD = 8;
const START = 0;
const LENGTH = 1;
const FIELD = 2;
const HASH = 3;
const PAYLOAD = 4;
const LOCAL = 5;

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
  arena: Uint8Array;
  records: Int32Array;
  table: Int32Array;
  count: number;
}

export class TermHash {
  /** term bytes, back to back */
  private arena = newU8(MIN_ARENA);
  private arenaTop = 0;
  /** per term a record (RECORD above) */
  private records = newI32(256 * RECORD);
  /**
   * Two words per slot: term number + 1 (0: empty) and the term's hash, so that a probe past
   * another term is decided in the table without touching the per-term arrays
   */
  private table = newI32(MIN_TABLE * 2);
  private mask = MIN_TABLE - 1;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get byteSize(): number {
    return (
      this.arena.byteLength +
      this.table.byteLength +
      this.records.byteLength
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
      const r = (entry - 1) * RECORD;
      const records = this.records;
      if (records[r + LENGTH] === len && records[r + FIELD] === field && this.sameBytes(records[r + START]!, bytes, start, len)) return entry - 1;
    }
  }

  /** Adds a term known to be absent; returns its term number. */
  insert(field: number, bytes: Uint8Array, start: number, end: number, hash: number, payload: number, localIndex: number): number {
    if ((this.count + 1) * 2 > this.mask + 1) this.rehash((this.mask + 1) * 2);
    if ((this.count + 1) * RECORD > this.records.length) this.records = grown(this.records, this.records.length * 2);
    const len = end - start;
    if (this.arenaTop + len > this.arena.length) this.growArena(len);
    const t = this.count++;
    const arena = this.arena;
    const top = this.arenaTop;
    for (let i = 0; i < len; i++) arena[top + i] = bytes[start + i]!;
    const records = this.records;
    const r = t * RECORD;
    records[r + START] = top;
    records[r + LENGTH] = len;
    records[r + FIELD] = field;
    records[r + HASH] = hash;
    records[r + PAYLOAD] = payload;
    records[r + LOCAL] = localIndex;
    this.arenaTop = top + len;
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
      records: this.records.slice(0, n * RECORD),
      table: this.table.slice(),
      count: n,
    };
  }

  /**
   * The arrays without a copy: valid for reading while no insert happens (an insert fills a slot
   * of `table` in place), and for good once the dictionary takes no more terms.
   */
  shared(): TermHashSnapshot {
    const n = this.count;
    return { arena: this.arena.subarray(0, this.arenaTop), records: this.records.subarray(0, n * RECORD), table: this.table, count: n };
  }

  /** A read-only dictionary over a snapshot's arrays (they are used, not copied). */
  static restore(s: TermHashSnapshot): TermHash {
    const h = new TermHash();
    h.arena = s.arena;
    h.arenaTop = s.arena.length;
    h.records = s.records;
    h.table = s.table;
    h.mask = s.table.length / 2 - 1;
    h.count = s.count;
    return h;
  }

  payload(t: number): number {
    return this.records[t * RECORD + PAYLOAD]!;
  }

  localIndex(t: number): number {
    return this.records[t * RECORD + LOCAL]!;
  }

  /** The term's bytes as a view into the arena (valid until the next insert). */
  bytesOf(t: number): Uint8Array {
    const start = this.records[t * RECORD + START]!;
    return this.arena.subarray(start, start + this.records[t * RECORD + LENGTH]!);
  }

  /** Whether the arena holds bytes[start, start + len) at `at`. */
  private sameBytes(at: number, bytes: Uint8Array, start: number, len: number): boolean {
    const arena = this.arena;
    for (let i = 0; i < len; i++) if (arena[at + i] !== bytes[start + i]) return false;
    return true;
  }

  private rehash(slots: number): void {
    const table = newI32(slots * 2);
    const mask = slots - 1;
    for (let t = 0; t < this.count; t++) {
      const hash = this.records[t * RECORD + HASH]!;
      let slot = hash & mask;
      while (table[slot * 2] !== EMPTY_SLOT) slot = (slot + 1) & mask;
      table[slot * 2] = t + 1;
      table[slot * 2 + 1] = hash;
    }
    this.table = table;
    this.mask = mask;
  }

  private growArena(extra: number): void {
    let size = this.arena.length * 2;
    while (size < this.arenaTop + extra) size *= 2;
    this.arena = grown(this.arena, size);
  }
}
