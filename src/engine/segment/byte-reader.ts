/**
 * Cursor over bytes of the segment format, the inverse of ByteWriter. Reading past the end
 * throws FormatError, which callers turn into a CorruptionError naming the file.
 */

/** Bytes do not decode as the format says; the reader converts it to a CorruptionError. */
export class FormatError extends Error {}

export class ByteReader {
  pos: number;
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.pos = start;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number): void {
    if (this.pos + n > this.end) throw new FormatError('unexpected end of data');
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++]!;
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u64(): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  varint(): number {
    const b = this.bytes;
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 8; i++) {
      if (this.pos >= this.end) throw new FormatError('unexpected end of data');
      const byte = b[this.pos++]!;
      result += (byte & 0x7f) * mul;
      if (byte < 0x80) return result;
      mul *= 0x80;
    }
    throw new FormatError('varint too long');
  }

  bytesView(n: number): Uint8Array {
    this.need(n);
    const v = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  lenBytes(): Uint8Array {
    return this.bytesView(this.varint());
  }

  align4(): void {
    this.pos = (this.pos + 3) & ~3;
  }

  get remaining(): number {
    return this.end - this.pos;
  }
}
