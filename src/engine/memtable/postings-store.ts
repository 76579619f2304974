/**
 * Postings of the terms of a memtable, addressed by term id. A term owns a block of doc ids in an
 * arena; a positional (text) term also owns a block of positions and a block of `docFreq + 1`
 * offsets into it, the last one the running end, so `positions()` returns views only. The only
 * per-term table besides the arenas' starts is the doc count: the other lengths follow from it.
 */
import { BlockArena, type BlockArenaSnapshot } from './block-arena.js';
import { grown } from './growable.js';
import { newU32 } from './memory.js';
import type { PositionPostings } from '../segment-reader.js';

/** lastDoc of a term without docs (doc ids stay below 2^32 - 1) */
const NO_DOC = 0xffffffff;

class DocCounts {
  data: Uint32Array = newU32(256);
  length = 0;

  static of(counts: Uint32Array): DocCounts {
    const c = new DocCounts();
    c.data = counts;
    c.length = counts.length;
    return c;
  }

  add(): number {
    if (this.length === this.data.length) {
      this.data = grown(this.data, this.length + (this.length >> 1));
    }
    this.data[this.length] = 0;
    return this.length++;
  }
}

export interface PlainPostingsSnapshot {
  counts: Uint32Array;
  docs: BlockArenaSnapshot;
}

export interface PositionalPostingsSnapshot {
  counts: Uint32Array;
  docs: BlockArenaSnapshot;
  offsets: BlockArenaSnapshot;
  positions: BlockArenaSnapshot;
}

/** Doc ids per term (keywords, booleans). */
export class PlainPostings {
  private readonly counts: DocCounts;
  private readonly docs: BlockArena;

  constructor(s?: PlainPostingsSnapshot) {
    this.counts = s ? DocCounts.of(s.counts) : new DocCounts();
    const lengthOf = (t: number): number => this.counts.data[t]!;
    this.docs = s ? BlockArena.restore(s.docs, 1, lengthOf) : new BlockArena(1, lengthOf);
  }

  snapshot(): PlainPostingsSnapshot {
    return { counts: this.counts.data.slice(0, this.counts.length), docs: this.docs.snapshot() };
  }

  /** The arrays without a copy (see BlockArena.shared). */
  shared(): PlainPostingsSnapshot {
    return { counts: this.counts.data.subarray(0, this.counts.length), docs: this.docs.shared() };
  }

  get byteSize(): number {
    return this.docs.byteSize + this.counts.data.byteLength;
  }

  newTerm(): number {
    this.docs.newBlock();
    return this.counts.add();
  }

  /** Records that `doc` holds term `t`; docs arrive in increasing order. */
  addDoc(t: number, doc: number): void {
    const df = this.counts.data[t]!;
    if (df > 0 && this.docs.get(t, df - 1) === doc) return;
    this.docs.push(t, df, doc);
    this.counts.data[t] = df + 1;
  }

  docFreq(t: number): number {
    return this.counts.data[t]!;
  }

  postings(t: number): Uint32Array {
    return this.docs.view(t, this.counts.data[t]!);
  }
}

/** Doc ids, per-doc offsets and positions per term (text). */
export class PositionalPostings {
  private readonly counts: DocCounts;
  private readonly docs: BlockArena;
  private readonly offsets: BlockArena;
  private readonly positions: BlockArena;
  /**
   * Per term, for writing only, side by side: its last doc and the end of its positions, so that
   * adding a position reads one cache line instead of two arena blocks (the arenas hold the same
   * facts)
   */
  private tails: Uint32Array = new Uint32Array(512);

  constructor(s?: PositionalPostingsSnapshot) {
    this.counts = s ? DocCounts.of(s.counts) : new DocCounts();
    const docsOf = (t: number): number => this.counts.data[t]!;
    const offsetsOf = (t: number): number => this.counts.data[t]! + 1;
    const positionsOf = (t: number): number => this.offsets.get(t, this.counts.data[t]!);
    this.docs = s ? BlockArena.restore(s.docs, 1, docsOf) : new BlockArena(1, docsOf);
    this.offsets = s ? BlockArena.restore(s.offsets, 2, offsetsOf) : new BlockArena(2, offsetsOf);
    this.positions = s ? BlockArena.restore(s.positions, 1, positionsOf) : new BlockArena(1, positionsOf);
  }

  snapshot(): PositionalPostingsSnapshot {
    return {
      counts: this.counts.data.slice(0, this.counts.length),
      docs: this.docs.snapshot(),
      offsets: this.offsets.snapshot(),
      positions: this.positions.snapshot(),
    };
  }

  /** The arrays without a copy (see BlockArena.shared). */
  shared(): PositionalPostingsSnapshot {
    return {
      counts: this.counts.data.subarray(0, this.counts.length),
      docs: this.docs.shared(),
      offsets: this.offsets.shared(),
      positions: this.positions.shared(),
    };
  }

  get byteSize(): number {
    return this.docs.byteSize + this.offsets.byteSize + this.positions.byteSize + this.counts.data.byteLength;
  }

  newTerm(): number {
    this.docs.newBlock();
    this.offsets.newBlock();
    this.positions.newBlock();
    const t = this.counts.add();
    this.offsets.push(t, 0, 0);
    if (2 * t + 2 > this.tails.length) this.tails = grown(this.tails, this.tails.length * 2);
    this.tails[2 * t] = NO_DOC;
    this.tails[2 * t + 1] = 0;
    return t;
  }

  /** Records term `t` at position `pos` of `doc`; docs and positions arrive in increasing order. */
  addPosition(t: number, doc: number, pos: number): void {
    const tails = this.tails;
    const end = tails[2 * t + 1]!;
    this.positions.push(t, end, pos);
    tails[2 * t + 1] = end + 1;
    const df = this.counts.data[t]!;
    if (tails[2 * t] === doc) {
      this.offsets.set(t, df, end + 1);
      return;
    }
    tails[2 * t] = doc;
    this.docs.push(t, df, doc);
    this.offsets.push(t, df + 1, end + 1);
    this.counts.data[t] = df + 1;
  }

  docFreq(t: number): number {
    return this.counts.data[t]!;
  }

  postings(t: number): Uint32Array {
    return this.docs.view(t, this.counts.data[t]!);
  }

  positionPostings(t: number): PositionPostings {
    const df = this.counts.data[t]!;
    return {
      docs: this.docs.view(t, df),
      offsets: this.offsets.view(t, df + 1),
      positions: this.positions.view(t, this.offsets.get(t, df)),
    };
  }
}
