/**
 * Text doc-store blocks: the JSON source texts of consecutive docs, whole. Written by flushes
 * (format 4, quick to encode: the bytes are copied and compressed at a low Brotli quality),
 * and the only kind of block in format-1 files. Uncompressed block layout:
 *
 *   u8 encoding (0 UTF-8, 1 UTF-16LE) · per doc varint (byte length * 4 + suffix code) · texts
 *
 * Suffix code 1: the text ended with `,"_ts":<ts>,"_lid":<lid>}`, code 2: with `,"_lid":<lid>}`
 * (the doc's own `_ts` and `_lid` as JS number strings); that suffix is stored as a bare `}` and
 * the reader puts it back from the columns. Code 0: the text is stored as it is.
 */
import { FormatError } from './byte-reader.js';
import type { DocBlock, SourceColumns } from './doc-block.js';
import { ByteWriter } from './byte-writer.js';
import { UTF8 } from './strings.js';

const NO_SUFFIX = 0;
const TS_LID_SUFFIX = 1;
const LID_SUFFIX = 2;

/** The members a suffix code stands for (without the closing brace). */
function suffixText(code: number, ts: number, lid: number): string {
  if (code === TS_LID_SUFFIX) return `,"_ts":${String(ts)},"_lid":${String(lid)}`;
  if (code === LID_SUFFIX) return `,"_lid":${String(lid)}`;
  return '';
}

export class TextDocBlock implements DocBlock {
  readonly byteSize: number;
  private readonly encoding: number;
  /** byte offsets of each doc's text; length count + 1 */
  private readonly starts: Float64Array;
  /** suffix code of each doc (0: stored as it is) */
  private readonly suffixes: Uint8Array;

  constructor(
    private readonly bytes: Buffer,
    readonly count: number,
  ) {
    if (bytes.length < 1) throw new FormatError('empty doc block');
    this.encoding = bytes[0]!;
    const starts = new Float64Array(count + 1);
    const lens = new Float64Array(count);
    const suffixes = new Uint8Array(count);
    let pos = 1;
    for (let i = 0; i < count; i++) {
      let v = 0;
      let mul = 1;
      for (;;) {
        if (pos >= bytes.length) throw new FormatError('doc block header past end');
        const b = bytes[pos++]!;
        v += (b & 0x7f) * mul;
        if (b < 0x80) break;
        mul *= 0x80;
      }
      lens[i] = Math.floor(v / 4);
      suffixes[i] = v % 4;
      if (suffixes[i]! > LID_SUFFIX) throw new FormatError('bad suffix code');
    }
    let at = pos;
    for (let i = 0; i < count; i++) {
      starts[i] = at;
      at += lens[i]!;
    }
    starts[count] = at;
    if (at !== bytes.length) throw new FormatError('doc block length mismatch');
    this.starts = starts;
    this.suffixes = suffixes;
    this.byteSize = bytes.length + count * 9;
  }

  text(i: number, doc: number, columns: SourceColumns): string {
    const text = this.bytes.toString(this.encoding === UTF8 ? 'utf8' : 'utf16le', this.starts[i]!, this.starts[i + 1]!);
    const code = this.suffixes[i]!;
    if (code === NO_SUFFIX) return text;
    if (!text.endsWith('}')) throw new FormatError('stripped source does not end with a brace');
    const ts = columns.numeric('_ts')?.[doc] ?? NaN;
    const lid = columns.numeric('_lid')?.[doc] ?? NaN;
    return text.slice(0, -1) + suffixText(code, ts, lid) + '}';
  }
}

const CLOSE_BRACE = 0x7d;
const LID_MEMBER = Buffer.from(',"_lid":');
const TS_MEMBER = Buffer.from(',"_ts":');

/**
 * Where the decimal text of `value` (as `String(value)` writes it) starts, if bytes [.., end)
 * end with it; -1 otherwise. Integers are compared digit by digit, without making a string.
 */
function numberStart(bytes: Uint8Array, start: number, end: number, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    const text = Buffer.from(String(value), 'latin1');
    const from = end - text.length;
    return from >= start && text.equals(bytes.subarray(from, end)) ? from : -1;
  }
  let i = end;
  let v = value;
  do {
    if (--i < start || bytes[i] !== 0x30 + (v % 10)) return -1;
    v = Math.floor(v / 10);
  } while (v > 0);
  return i;
}

/** Start of `member` if bytes [.., end) end with it, else -1. */
function memberStart(bytes: Uint8Array, start: number, end: number, member: Uint8Array): number {
  const from = end - member.length;
  if (from < start) return -1;
  for (let k = 0; k < member.length; k++) if (bytes[from + k] !== member[k]) return -1;
  return from;
}

/** Collects UTF-8 source texts into one text block (layout above), suffixes left out. */
export class TextDocBlockEncoder {
  private readonly lengths = new ByteWriter(1 << 14);
  private readonly texts = new ByteWriter(1 << 20);
  private docs = 0;

  get count(): number {
    return this.docs;
  }

  /** Bytes of text held so far. */
  get bytes(): number {
    return this.texts.length;
  }

  /** Adds a source given as UTF-8 bytes [start, end), whose doc has `ts` and `lid`. */
  add(bytes: Uint8Array, start: number, end: number, ts: number, lid: number): void {
    let code = NO_SUFFIX;
    let keep = end;
    if (end - start >= 2 && bytes[end - 1] === CLOSE_BRACE) {
      const lidAt = numberStart(bytes, start, end - 1, lid);
      const lidMember = lidAt < 0 ? -1 : memberStart(bytes, start, lidAt, LID_MEMBER);
      if (lidMember >= 0) {
        const tsAt = numberStart(bytes, start, lidMember, ts);
        const tsMember = tsAt < 0 ? -1 : memberStart(bytes, start, tsAt, TS_MEMBER);
        code = tsMember >= 0 ? TS_LID_SUFFIX : LID_SUFFIX;
        keep = tsMember >= 0 ? tsMember : lidMember;
      }
    }
    const texts = this.texts;
    const length = keep - start + (code === NO_SUFFIX ? 0 : 1);
    texts.bytes(bytes.subarray(start, keep));
    if (code !== NO_SUFFIX) texts.u8(CLOSE_BRACE);
    this.lengths.varint(length * 4 + code);
    this.docs++;
  }

  /** The uncompressed block; starts the next one. */
  finish(): Buffer {
    const out = Buffer.allocUnsafe(1 + this.lengths.length + this.texts.length);
    out[0] = UTF8;
    out.set(this.lengths.view8(), 1);
    out.set(this.texts.view8(), 1 + this.lengths.length);
    this.lengths.clear();
    this.texts.clear();
    this.docs = 0;
    return out;
  }
}
