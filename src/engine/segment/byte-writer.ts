/**
 * Growable byte buffer with the primitive encodings of the segment format: unsigned LEB128
 * varints (up to 2^53), little-endian fixed-width numbers, 4-byte alignment.
 */

export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(initialCapacity = 1024) {
    this.buf = new Uint8Array(Math.max(16, initialCapacity));
    this.view = new DataView(this.buf.buffer);
  }

  /** Makes room for `extra` more bytes. */
  ensure(extra: number): void {
    const need = this.length + extra;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.length++] = v;
  }

  u32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.length, v >>> 0, true);
    this.length += 4;
  }

  u64(v: bigint): void {
    this.ensure(8);
    this.view.setBigUint64(this.length, v, true);
    this.length += 8;
  }

  f64(v: number): void {
    this.ensure(8);
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
  }

  /** Unsigned varint for integers in [0, 2^53). */
  varint(v: number): void {
    this.ensure(8);
    const b = this.buf;
    let n = this.length;
    while (v >= 0x80) {
      // division instead of shifts: values may exceed 32 bits
      b[n++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    b[n++] = v;
    this.length = n;
  }

  /** Unsigned varint for values known to fit 32 bits (the hot path of postings tails). */
  varint32(v: number): void {
    this.ensure(5);
    const b = this.buf;
    let n = this.length;
    v >>>= 0;
    while (v >= 0x80) {
      b[n++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[n++] = v;
    this.length = n;
  }

  bytes(src: Uint8Array): void {
    this.ensure(src.length);
    this.buf.set(src, this.length);
    this.length += src.length;
  }

  /** Appends src[start, end) (short runs: a loop, no view made). */
  bytesFrom(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.ensure(n);
    const buf = this.buf;
    let at = this.length;
    for (let i = start; i < end; i++) buf[at++] = src[i]!;
    this.length = at;
  }

  /** Varint byte length followed by the bytes. */
  lenBytes(src: Uint8Array): void {
    this.varint(src.length);
    this.bytes(src);
  }

  /** Pads with zero bytes to the next multiple of 4 (relative to the start of this buffer). */
  align4(): void {
    const pad = (4 - (this.length & 3)) & 3;
    this.ensure(pad);
    for (let i = 0; i < pad; i++) this.buf[this.length++] = 0;
  }

  /** Reserves `n` bytes at the end and returns their offset, for callers that fill them in place. */
  reserve(n: number): number {
    this.ensure(n);
    const at = this.length;
    this.length += n;
    return at;
  }

  /** The backing array; valid until the next write that grows it. */
  raw(): Uint8Array {
    return this.buf;
  }

  /** The written bytes (a view, valid until the next write). */
  view8(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  /** A copy of the written bytes. */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }
}
