/**
 * Postings of every term of a memtable, addressed by term id. Each term owns a block of doc ids;
 * a positional (text) term also owns a block of positions and a block of offsets into it
 * (`docFreq + 1` entries, the last one the running end), so `positions()` returns views only.
 */
import { BlockArena } from './block-arena.js';
import type { PositionPostings } from '../segment-reader.js';

export class PostingsStore {
  private readonly docs = new BlockArena();
  private readonly offsets = new BlockArena();
  private readonly positions = new BlockArena();
  private lastDoc = new Int32Array(1024);
  /** block id in `offsets`/`positions`, -1 for terms without positions */
  private posBlock = new Int32Array(1024);

  get termCount(): number {
    return this.docs.blockCount;
  }

  get byteSize(): number {
    return (
      this.docs.byteSize +
      this.offsets.byteSize +
      this.positions.byteSize +
      this.lastDoc.byteLength +
      this.posBlock.byteLength
    );
  }

  newTerm(withPositions: boolean): number {
    const t = this.docs.newBlock(1);
    if (t === this.lastDoc.length) this.growTermTable();
    this.lastDoc[t] = -1;
    if (withPositions) {
      const pb = this.offsets.newBlock(2);
      this.positions.newBlock(2);
      this.offsets.push(pb, 0);
      this.posBlock[t] = pb;
    } else {
      this.posBlock[t] = -1;
    }
    return t;
  }

  /** Records that `doc` holds term `t`; docs arrive in increasing order. */
  addDoc(t: number, doc: number): void {
    if (this.lastDoc[t] === doc) return;
    this.lastDoc[t] = doc;
    this.docs.push(t, doc);
  }

  /** Records term `t` at position `pos` of `doc`; positions of one doc arrive in increasing order. */
  addPosition(t: number, doc: number, pos: number): void {
    const pb = this.posBlock[t]!;
    this.positions.push(pb, pos);
    const end = this.positions.length(pb);
    if (this.lastDoc[t] === doc) {
      this.offsets.setLast(pb, end);
    } else {
      this.lastDoc[t] = doc;
      this.docs.push(t, doc);
      this.offsets.push(pb, end);
    }
  }

  docFreq(t: number): number {
    return this.docs.length(t);
  }

  postings(t: number): Uint32Array {
    return this.docs.view(t);
  }

  positionPostings(t: number): PositionPostings | null {
    const pb = this.posBlock[t]!;
    if (pb < 0) return null;
    return { docs: this.docs.view(t), offsets: this.offsets.view(pb), positions: this.positions.view(pb) };
  }

  private growTermTable(): void {
    const size = this.lastDoc.length * 2;
    const lastDoc = new Int32Array(size);
    lastDoc.set(this.lastDoc);
    this.lastDoc = lastDoc;
    const posBlock = new Int32Array(size);
    posBlock.set(this.posBlock);
    this.posBlock = posBlock;
  }
}
