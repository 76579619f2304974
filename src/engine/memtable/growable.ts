/**
 * Append-only typed-array lists. Growth allocates a larger array and copies, so views handed out
 * earlier keep the prefix they saw: readers never observe later writes.
 */

function nextCapacity(current: number, needed: number): number {
  let cap = Math.max(current, 16);
  while (cap < needed) cap = cap < 1 << 20 ? cap * 2 : cap + (cap >> 1);
  return cap;
}

export class U32List {
  data: Uint32Array;
  length = 0;

  /** A list holding exactly `values` (a frozen copy, for a memtable snapshot). */
  static of(values: Uint32Array): U32List {
    const list = new U32List(0);
    list.data = values;
    list.length = values.length;
    return list;
  }

  /** A copy of the values, sized to them. */
  copy(): Uint32Array<ArrayBuffer> {
    return this.data.slice(0, this.length);
  }

  constructor(initialCapacity = 16) {
    this.data = new Uint32Array(initialCapacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  last(): number {
    return this.data[this.length - 1]!;
  }

  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }

  private grow(needed: number): void {
    const next = new Uint32Array(nextCapacity(this.data.length, needed));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

export class I32List {
  data: Int32Array;
  length = 0;

  /** A list holding exactly `values` (a frozen copy, for a memtable snapshot). */
  static of(values: Int32Array): I32List {
    const list = new I32List(0);
    list.data = values;
    list.length = values.length;
    return list;
  }

  /** A copy of the values, sized to them. */
  copy(): Int32Array<ArrayBuffer> {
    return this.data.slice(0, this.length);
  }

  constructor(initialCapacity = 16) {
    this.data = new Int32Array(initialCapacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  private grow(needed: number): void {
    const next = new Int32Array(nextCapacity(this.data.length, needed));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

export class F64List {
  data: Float64Array;
  length = 0;

  /** A list holding exactly `values` (a frozen copy, for a memtable snapshot). */
  static of(values: Float64Array): F64List {
    const list = new F64List(0);
    list.data = values;
    list.length = values.length;
    return list;
  }

  /** A copy of the values, sized to them. */
  copy(): Float64Array<ArrayBuffer> {
    return this.data.slice(0, this.length);
  }

  constructor(initialCapacity = 16) {
    this.data = new Float64Array(initialCapacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }

  private grow(needed: number): void {
    const next = new Float64Array(nextCapacity(this.data.length, needed));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

export class BigU64List {
  data: BigUint64Array;
  length = 0;

  /** A list holding exactly `values` (a frozen copy, for a memtable snapshot). */
  static of(values: BigUint64Array): BigU64List {
    const list = new BigU64List(0);
    list.data = values;
    list.length = values.length;
    return list;
  }

  /** A copy of the values, sized to them. */
  copy(): BigUint64Array<ArrayBuffer> {
    return this.data.slice(0, this.length);
  }

  constructor(initialCapacity = 16) {
    this.data = new BigUint64Array(initialCapacity);
  }

  push(value: bigint): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  view(): BigUint64Array {
    return this.data.subarray(0, this.length);
  }

  private grow(needed: number): void {
    const next = new BigUint64Array(nextCapacity(this.data.length, needed));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}
