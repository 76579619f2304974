/**
 * A growable ScannedValues: the values of the documents of one write, in flat typed arrays.
 */
import type { FieldSlot, ScannedValues } from '../memtable/index.js';

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
    const slot = new Int32Array(n);
    slot.set(this.slot);
    this.slot = slot;
    const start = new Uint32Array(n);
    start.set(this.start);
    this.start = start;
    const end = new Uint32Array(n);
    end.set(this.end);
    this.end = end;
    const num = new Float64Array(n);
    num.set(this.num);
    this.num = num;
  }
}
