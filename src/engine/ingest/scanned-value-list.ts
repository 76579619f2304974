/**
 * A growable ScannedValues: the values of the documents of one write, in flat typed arrays.
 */
import { grown, type FieldSlot, type ScannedValues } from '../memtable/index.js';

export class ScannedValueList implements ScannedValues {
  slot: Int32Array;
  start: Uint32Array;
  end: Uint32Array;
  num: Float64Array;
  length = 0;

  constructor(
    readonly bytes: Uint8Array,
    readonly slots: readonly FieldSlot[],
    capacity: number,
  ) {
    const n = Math.max(16, capacity);
    this.slot = new Int32Array(n);
    this.start = new Uint32Array(n);
    this.end = new Uint32Array(n);
    this.num = new Float64Array(n);
  }

  push(slot: number, start: number, end: number, num: number): void {
    if (this.length === this.slot.length) this.grow();
    const k = this.length++;
    this.slot[k] = slot;
    this.start[k] = start;
    this.end[k] = end;
    this.num[k] = num;
  }

  private grow(): void {
    const n = this.slot.length * 2;
    this.slot = grown(this.slot, n);
    this.start = grown(this.start, n);
    this.end = grown(this.end, n);
    this.num = grown(this.num, n);
  }
}
