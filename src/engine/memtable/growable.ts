/**
 * Append-only typed-array lists. Growth allocates a larger array and copies, so views handed out
 * earlier keep the prefix they saw: readers never observe later writes.
 */

import { newBigU64, newF64, newI32, newU32, newU8 } from './memory.js';

type AnyTypedArray = Uint8Array | Uint32Array | Int32Array | Float64Array | BigUint64Array;

/** A new array of `length` elements starting with the values of `a` (the rest zero), in memtable memory (memory.ts). */
export function grown(a: Uint8Array, length: number): Uint8Array;
export function grown(a: Uint32Array, length: number): Uint32Array;
export function grown(a: Int32Array, length: number): Int32Array;
export function grown(a: Float64Array, length: number): Float64Array;
export function grown(a: BigUint64Array, length: number): BigUint64Array;
export function grown(a: AnyTypedArray, length: number): AnyTypedArray {
  const b = allocLike(a, length);
  (b as unknown as { set(values: AnyTypedArray): void }).set(a.length > length ? a.subarray(0, length) : a);
  return b;
}

function allocLike(a: AnyTypedArray, length: number): AnyTypedArray {
  if (a instanceof Uint8Array) return newU8(length);
  if (a instanceof Uint32Array) return newU32(length);
  if (a instanceof Int32Array) return newI32(length);
  if (a instanceof Float64Array) return newF64(length);
  return newBigU64(length);
}

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

  /** The values as they are now, without a copy (later pushes go past them or to a new array). */
  shared(): Uint32Array {
    return this.data.subarray(0, this.length);
  }

  constructor(initialCapacity = 16) {
    this.data = newU32(initialCapacity);
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
    this.data = grown(this.data, nextCapacity(this.data.length, needed));
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

  /** The values as they are now, without a copy (later pushes go past them or to a new array). */
  shared(): Int32Array {
    return this.data.subarray(0, this.length);
  }

  constructor(initialCapacity = 16) {
    this.data = newI32(initialCapacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  private grow(needed: number): void {
    this.data = grown(this.data, nextCapacity(this.data.length, needed));
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

  /** The values as they are now, without a copy (later pushes go past them or to a new array). */
  shared(): Float64Array {
    return this.data.subarray(0, this.length);
  }

  constructor(initialCapacity = 16) {
    this.data = newF64(initialCapacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }

  private grow(needed: number): void {
    this.data = grown(this.data, nextCapacity(this.data.length, needed));
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

  /** The values as they are now, without a copy (later pushes go past them or to a new array). */
  shared(): BigUint64Array {
    return this.data.subarray(0, this.length);
  }

  constructor(initialCapacity = 16) {
    this.data = newBigU64(initialCapacity);
  }

  push(value: bigint): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  view(): BigUint64Array {
    return this.data.subarray(0, this.length);
  }

  private grow(needed: number): void {
    this.data = grown(this.data, nextCapacity(this.data.length, needed));
  }
}
