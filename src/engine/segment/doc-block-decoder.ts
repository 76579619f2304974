/**
 * Reads a column-wise doc block (doc-block-layout.ts) and puts sources back together. Decoding
 * a block locates every value once (offsets into the decompressed bytes, integers as numbers);
 * a source is then the shape's literal bytes with the doc's values copied in between, built in
 * a scratch buffer and turned into a string once.
 */
import { ByteReader, FormatError } from './byte-reader.js';
import {
  CODING_CODES,
  CODING_DICT,
  CODING_INT,
  CODING_INT_DELTA,
  CODING_LENGTHS,
  CODING_NONE,
  CODING_TEMPLATE,
  CODING_TEXT,
  HEX_MARK,
  MAX_HEX_BYTES,
  MIN_HEX_BYTES,
  NUMBER_MARK,
  SEPARATOR_CODE,
  numberContext,
  numberContextBefore,
  unzigzag,
} from './doc-block-layout.js';
import type { OrdinalColumn } from '../segment-reader.js';
import type { DocBlock, SourceColumns } from './doc-block.js';
import { ContextGroups } from './context-groups.js';
import {
  LITERAL_NULL,
  LITERAL_TEXTS,
  SLOT_INT,
  SLOT_KEYWORD_COLUMN,
  SLOT_LITERAL,
  SLOT_NUMBER_TEXT,
  SLOT_NUMERIC_COLUMN,
  SLOT_RAW,
  SLOT_STRING,
} from './source-scanner.js';
import { UTF16, UTF8 } from './strings.js';

interface DecodedShape {
  /** literal byte ranges of the block: litStart[j], litEnd[j] before slot j, then the last one */
  litStart: Uint32Array;
  litEnd: Uint32Array;
  slotKind: Uint8Array;
  /** stream of each slot */
  slotStream: Uint32Array;
  /** how many earlier slots of the shape use the same stream */
  slotOccurrence: Uint32Array;
}

interface DecodedStream {
  kind: number;
  /** the key: for column slots the field whose column holds the values */
  key: string;
  coding: number;
  count: number;
  /** text values: value k is bytes[starts[k], starts[k + 1] - separator bytes) */
  starts: Uint32Array | null;
  /** dictionary values: value k is dictionary entry ords[k] */
  ords: Uint32Array | null;
  numbers: Float64Array | null;
  codes: Uint8Array | null;
  /** template text: the numbers of its marks in order, and each value's first mark */
  markNumbers: Float64Array | null;
  firstMark: Uint32Array | null;
  /** byte offset of each mark */
  markAt: Uint32Array | null;
  /** hex tokens: each mark's offset, each value's first, and where each token's byte count is */
  hexAt: Uint32Array | null;
  firstHex: Uint32Array | null;
  hexStart: Uint32Array | null;
  /** column slots: the column, once asked for, and each term's bytes once written */
  numericColumn: Float64Array | null;
  ordinalColumn: OrdinalColumn | null;
  termBytes: Array<Buffer | undefined> | null;
}

let scratch = Buffer.allocUnsafe(64 << 10);
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');

function ensureScratch(n: number): Buffer {
  if (scratch.length < n) scratch = Buffer.allocUnsafe(Math.max(n, scratch.length * 2));
  return scratch;
}

export class ColumnDocBlock implements DocBlock {
  readonly byteSize: number;
  private readonly encoding: BufferEncoding;
  private readonly unit: number;
  private readonly shapes: DecodedShape[] = [];
  private readonly shapeOf: Uint32Array;
  private readonly streams: DecodedStream[] = [];
  /** first value of doc i in stream s: firstValue[s * (count + 1) + i] */
  private readonly firstValue: Uint32Array;

  constructor(
    private readonly bytes: Buffer,
    readonly count: number,
  ) {
    const r = new ByteReader(bytes);
    const enc = r.u8();
    if (enc !== UTF8 && enc !== UTF16) throw new FormatError(`bad doc block encoding ${enc}`);
    this.encoding = enc === UTF8 ? 'utf8' : 'utf16le';
    this.unit = enc === UTF8 ? 1 : 2;
    if (r.varint() !== count) throw new FormatError('doc block count mismatch');
    const numShapes = r.varint();
    if (numShapes > count + 1) throw new FormatError('too many shapes in doc block');
    const shapeStreams: number[] = [];
    for (let i = 0; i < numShapes; i++) this.shapes.push(this.readShape(r, shapeStreams));
    const numStreams = r.varint();
    if (numStreams > bytes.length) throw new FormatError('too many streams in doc block');
    const heads: Array<{ kind: number; coding: number; count: number; length: number; key: string }> = [];
    for (let s = 0; s < numStreams; s++) {
      const kind = r.u8();
      const coding = r.u8();
      const n = r.varint();
      const length = r.varint();
      const keyLength = r.varint();
      const key = bytes.toString(this.encoding, r.pos, r.pos + keyLength);
      r.bytesView(keyLength);
      heads.push({ kind, coding, count: n, length, key });
    }
    for (const s of shapeStreams) if (s >= numStreams) throw new FormatError('shape names a missing stream');
    this.shapeOf = new Uint32Array(count);
    for (let i = 0; i < count; i++) {
      const id = r.varint();
      if (id >= numShapes) throw new FormatError('doc shape out of range');
      this.shapeOf[i] = id;
    }
    let at = r.pos;
    for (const h of heads) {
      if (at + h.length > bytes.length) throw new FormatError('doc block stream past end');
      this.streams.push(this.readStream(h.kind, h.coding, h.count, h.key, at, at + h.length));
      at += h.length;
    }
    if (at !== bytes.length) throw new FormatError('doc block length mismatch');
    this.firstValue = this.locateValues();
    let arrays = 0;
    for (const st of this.streams) {
      for (const a of [st.starts, st.ords, st.numbers, st.markNumbers, st.firstMark, st.markAt, st.hexAt, st.firstHex, st.hexStart]) {
        if (a !== null) arrays += a.byteLength;
      }
    }
    this.byteSize = bytes.length + this.firstValue.byteLength + this.shapeOf.byteLength + arrays + numStreams * 64;
  }

  text(i: number, doc: number, columns: SourceColumns): string {
    const shape = this.shapes[this.shapeOf[i]!]!;
    const bytes = this.bytes;
    const stride = this.count + 1;
    const slots = shape.slotKind.length;
    let out = ensureScratch(4096);
    let n = 0;
    for (let j = 0; j <= slots; j++) {
      const ls = shape.litStart[j]!;
      const le = shape.litEnd[j]!;
      if (n + (le - ls) > out.length) out = ensureScratch(n + (le - ls));
      n = copyBytes(bytes, ls, le, out, n);
      if (j === slots) break;
      const s = shape.slotStream[j]!;
      const stream = this.streams[s]!;
      const k = this.firstValue[s * stride + i]! + shape.slotOccurrence[j]!;
      if (stream.coding === CODING_NONE) {
        n = this.writeColumnValue(stream, doc, columns, n);
        out = scratch;
      } else if (stream.numbers !== null) {
        out = ensureScratch(n + 64);
        const v = stream.numbers[k]!;
        if (v < 0) {
          out[n] = 0x2d;
          if (this.unit === 2) out[n + 1] = 0;
          n += this.unit;
        }
        n = writeDigits(out, n, Math.abs(v), this.unit);
      } else if (stream.codes !== null) {
        out = ensureScratch(n + 16);
        n += out.write(LITERAL_TEXTS[stream.codes[k]!]!, n, this.encoding);
      } else if (stream.markNumbers !== null) {
        n = this.writeTemplate(stream, k, n);
        out = scratch;
      } else {
        const starts = stream.starts!;
        const e = stream.ords === null ? k : stream.ords[k]!;
        const vs = starts[e]!;
        const ve = starts[e + 1]! - (stream.coding === CODING_LENGTHS ? 0 : this.unit);
        if (n + (ve - vs) > out.length) out = ensureScratch(n + (ve - vs));
        n = copyBytes(bytes, vs, ve, out, n);
      }
    }
    return out.toString(this.encoding, 0, n);
  }

  /**
   * Writes a column slot's value at scratch[n]: the keyword term, or the number as JavaScript
   * prints it; returns the new end.
   */
  private writeColumnValue(stream: DecodedStream, doc: number, columns: SourceColumns, n: number): number {
    if (stream.kind === SLOT_KEYWORD_COLUMN) {
      const column = (stream.ordinalColumn ??= columns.ordinals(stream.key));
      const o = column === null ? -1 : column.ords[doc]!;
      if (o === undefined || o < 0) throw new FormatError(`no keyword value of ${stream.key} for doc ${doc}`);
      const terms = (stream.termBytes ??= []);
      const bytes = (terms[o] ??= Buffer.from(column!.terms[o]!, this.encoding));
      const out = ensureScratch(n + bytes.length);
      return copyBytes(bytes, 0, bytes.length, out, n);
    }
    const column = (stream.numericColumn ??= columns.numeric(stream.key));
    const v = column === null ? NaN : column[doc]!;
    if (v !== v || v === undefined) throw new FormatError(`no numeric value of ${stream.key} for doc ${doc}`);
    const out = ensureScratch(n + 32 * this.unit);
    if (Number.isSafeInteger(v) && v >= 0) return writeDigits(out, n, v, this.unit);
    return n + out.write(String(v), n, this.encoding);
  }

  /** Writes value k of a template stream at scratch[n]; returns the new end. */
  private writeTemplate(stream: DecodedStream, k: number, n: number): number {
    const bytes = this.bytes;
    const unit = this.unit;
    const numbers = stream.markNumbers!;
    const markAt = stream.markAt!;
    const hexAt = stream.hexAt!;
    const hexStart = stream.hexStart!;
    const end = stream.firstMark![k + 1]!;
    const hexEnd = stream.firstHex![k + 1]!;
    let m = stream.firstMark![k]!;
    let h = stream.firstHex![k]!;
    const vs = stream.starts![k]!;
    const ve = stream.starts![k + 1]! - unit;
    const out = ensureScratch(n + (ve - vs) + 16 * unit * (end - m) + 2 * MAX_HEX_BYTES * unit * (hexEnd - h));
    let from = vs;
    while (m < end || h < hexEnd) {
      const isNumber = h === hexEnd || (m < end && markAt[m]! < hexAt[h]!);
      const p = isNumber ? markAt[m]! : hexAt[h]!;
      n = copyBytes(bytes, from, p, out, n);
      if (isNumber) {
        n = writeDigits(out, n, numbers[m++]!, unit);
      } else {
        const tokenStart = hexStart[h]! + 1;
        for (let b = tokenStart; b < tokenStart + bytes[tokenStart - 1]!; b++) {
          out[n] = HEX_DIGITS[bytes[b]! >>> 4]!;
          if (unit === 2) out[n + 1] = 0;
          out[n + unit] = HEX_DIGITS[bytes[b]! & 15]!;
          if (unit === 2) out[n + unit + 1] = 0;
          n += 2 * unit;
        }
        h++;
      }
      from = p + unit;
    }
    return copyBytes(bytes, from, ve, out, n);
  }

  /** Reads one shape: its text (split at the slot markers) and the streams of its slots. */
  private readShape(r: ByteReader, allStreams: number[]): DecodedShape {
    const len = r.varint();
    const start = r.pos;
    r.bytesView(len);
    const end = start + len;
    const bytes = this.bytes;
    const unit = this.unit;
    if (len % unit !== 0) throw new FormatError('odd shape length');
    const litStart: number[] = [start];
    const litEnd: number[] = [];
    const kinds: number[] = [];
    for (let p = start; p < end; p += unit) {
      const c = unit === 1 ? bytes[p]! : bytes[p]! | (bytes[p + 1]! << 8);
      if (c >= 0x20 || c < 1 || c > SLOT_RAW) continue;
      litEnd.push(p);
      litStart.push(p + unit);
      kinds.push(c);
    }
    litEnd.push(end);
    const slotStream = new Uint32Array(kinds.length);
    const slotOccurrence = new Uint32Array(kinds.length);
    for (let j = 0; j < kinds.length; j++) {
      const s = r.varint();
      allStreams.push(s);
      slotStream[j] = s;
      for (let q = 0; q < j; q++) if (slotStream[q] === s) slotOccurrence[j]!++;
    }
    if (kinds.includes(SLOT_RAW) && (kinds.length !== 1 || litEnd[0] !== start || litStart[1] !== end)) {
      throw new FormatError('bad whole-text shape');
    }
    return {
      litStart: Uint32Array.from(litStart),
      litEnd: Uint32Array.from(litEnd),
      slotKind: Uint8Array.from(kinds),
      slotStream,
      slotOccurrence,
    };
  }

  private readStream(kind: number, coding: number, count: number, key: string, start: number, end: number): DecodedStream {
    const stream: DecodedStream = {
      kind, key, coding, count, starts: null, ords: null, numbers: null, codes: null, markNumbers: null, firstMark: null, markAt: null, hexAt: null, firstHex: null, hexStart: null,
      numericColumn: null, ordinalColumn: null, termBytes: null,
    };
    const expected = codingsOf(kind);
    if (!expected.includes(coding)) throw new FormatError(`coding ${coding} does not fit slot kind ${kind}`);
    if (coding === CODING_NONE) {
      if (end !== start) throw new FormatError('bytes in a column stream');
      return stream;
    }
    // every value takes a byte at least (text values but the last a separator): a damaged count
    // must not turn into a giant allocation
    if (count > end - start + 1) throw new FormatError('stream value count out of range');
    const r = new ByteReader(this.bytes, start, end);
    switch (coding) {
      case CODING_TEXT:
        stream.starts = this.separated(start, end, count);
        return stream;
      case CODING_TEMPLATE: {
        const textLength = r.varint();
        const textStart = r.pos;
        r.bytesView(textLength);
        stream.starts = this.separated(textStart, textStart + textLength, count);
        this.readTemplateNumbers(stream, r);
        break;
      }
      case CODING_DICT: {
        const distinct = r.varint();
        const dictLength = r.varint();
        const dictStart = r.pos;
        r.bytesView(dictLength);
        if (distinct > dictLength + 1) throw new FormatError('dictionary size out of range');
        stream.starts = this.separated(dictStart, dictStart + dictLength, distinct);
        const ords = new Uint32Array(count);
        const wide = distinct > 256;
        for (let k = 0; k < count; k++) {
          const o = wide ? r.varint() : r.u8();
          if (o >= distinct) throw new FormatError('dictionary index out of range');
          ords[k] = o;
        }
        stream.ords = ords;
        break;
      }
      case CODING_INT:
      case CODING_INT_DELTA: {
        const numbers = new Float64Array(count);
        let prev = 0;
        for (let k = 0; k < count; k++) {
          const v = unzigzag(r.varint());
          prev = coding === CODING_INT_DELTA ? prev + v : v;
          numbers[k] = prev;
        }
        stream.numbers = numbers;
        break;
      }
      case CODING_CODES: {
        const codes = r.bytesView(count);
        for (let k = 0; k < count; k++) if (codes[k]! > LITERAL_NULL) throw new FormatError('bad literal code');
        stream.codes = codes;
        break;
      }
      case CODING_LENGTHS: {
        const lens = new Float64Array(count);
        for (let k = 0; k < count; k++) lens[k] = r.varint();
        const starts = new Uint32Array(count + 1);
        let at = r.pos;
        for (let k = 0; k < count; k++) {
          starts[k] = at;
          at += lens[k]!;
        }
        starts[count] = at;
        if (at > end) throw new FormatError('whole texts past end of stream');
        r.pos = at;
        stream.starts = starts;
        break;
      }
    }
    if (r.pos !== end) throw new FormatError('stream length mismatch');
    return stream;
  }

  /**
   * Finds the number marks of a template stream's text and puts the numbers, stored grouped by
   * context, back in mark order.
   */
  private readTemplateNumbers(stream: DecodedStream, r: ByteReader): void {
    const bytes = this.bytes;
    const starts = stream.starts!;
    const count = stream.count;
    const { at: markAt, first: firstMark, n: marks } = this.findMarks(NUMBER_MARK, starts, count);
    if (marks > r.remaining) throw new FormatError('more number marks than numbers');
    const markGroup = new Uint32Array(marks);
    const markRank = new Uint32Array(marks);
    const groupOf = new ContextGroups();
    let groupSize = new Uint32Array(16);
    for (let k = 0, m = 0; k < count; k++) {
      const vs = starts[k]!;
      for (; m < firstMark[k + 1]!; m++) {
        const g = groupOf.groupOf(this.contextAt(vs, markAt[m]!));
        if (g === groupSize.length) {
          const grown = new Uint32Array(groupSize.length * 2);
          grown.set(groupSize);
          groupSize = grown;
        }
        markGroup[m] = g;
        markRank[m] = groupSize[g]!++;
      }
    }
    const groups = groupOf.size;
    const groupStart = new Uint32Array(groups + 1);
    for (let g = 0; g < groups; g++) groupStart[g + 1] = groupStart[g]! + groupSize[g]!;
    const grouped = new Float64Array(marks);
    let pos = r.pos;
    for (let i = 0; i < marks; i++) {
      let b = pos < r.end ? bytes[pos++]! : 256;
      let v = b & 0x7f;
      for (let mul = 0x80; b >= 0x80; mul *= 0x80) {
        if (b === 256 || mul > 2 ** 49) throw new FormatError('bad number in template stream');
        b = pos < r.end ? bytes[pos++]! : 256;
        v += (b & 0x7f) * mul;
      }
      grouped[i] = v;
    }
    r.pos = pos;
    const markNumbers = new Float64Array(marks);
    for (let i = 0; i < marks; i++) markNumbers[i] = grouped[groupStart[markGroup[i]!]! + markRank[i]!]!;
    stream.markNumbers = markNumbers;
    stream.firstMark = firstMark;
    stream.markAt = markAt;
    // then the hex tokens, in mark order: u8 byte count · bytes
    const hex = this.findMarks(HEX_MARK, starts, count);
    // token i's bytes: [hexStart[i] + 1, hexStart[i] + 1 + the byte count at hexStart[i])
    const hexStart = new Uint32Array(hex.n);
    for (let i = 0; i < hex.n; i++) {
      hexStart[i] = r.pos;
      const len = r.u8();
      if (len < MIN_HEX_BYTES || len > MAX_HEX_BYTES) throw new FormatError('bad hex token length');
      r.bytesView(len);
    }
    stream.hexAt = hex.at;
    stream.firstHex = hex.first;
    stream.hexStart = hexStart;
  }

  /** The byte offset of every `mark` in the values of a template stream, and each value's first. */
  private findMarks(mark: number, starts: Uint32Array, count: number): { at: Uint32Array; first: Uint32Array; n: number } {
    const unit = this.unit;
    const first = new Uint32Array(count + 1);
    let at = new Uint32Array(64);
    let n = 0;
    const textEnd = count > 0 ? starts[count]! - unit : 0;
    let k = 0;
    for (let p = this.nextMark(count > 0 ? starts[0]! : 0, textEnd, mark); p >= 0; p = this.nextMark(p + unit, textEnd, mark)) {
      while (starts[k + 1]! <= p) first[++k] = n;
      if (n === at.length) {
        const grown = new Uint32Array(n * 2);
        grown.set(at);
        at = grown;
      }
      at[n++] = p;
    }
    while (k < count) first[++k] = n;
    return { at, first, n };
  }

  /** The byte offset of the first number mark in bytes[from, end), or -1. */
  private nextMark(from: number, end: number, mark: number): number {
    const bytes = this.bytes;
    if (this.unit === 1) {
      const at = from < end ? bytes.indexOf(mark, from) : -1;
      return at >= 0 && at < end ? at : -1;
    }
    for (let p = from; p < end; p += 2) if (bytes[p] === mark && bytes[p + 1] === 0) return p;
    return -1;
  }

  /** The context key of the mark at byte p of a value starting at byte `start`. */
  private contextAt(start: number, p: number): number {
    const bytes = this.bytes;
    const unit = this.unit;
    if (unit === 1 && p - 3 >= start) {
      // the common case: three ASCII bytes before the mark
      const c1 = bytes[p - 1]!;
      const c2 = bytes[p - 2]!;
      const c3 = bytes[p - 3]!;
      if ((c1 | c2 | c3) < 0x80) return numberContext(3, c1, c2, c3);
    }
    return numberContextBefore(bytes, start, p, unit);
  }

  /**
   * Start offsets of `count` values joined by separators in bytes[start, end), with one more
   * entry: end plus a separator, so that value k ends a separator before starts[k + 1].
   */
  private separated(start: number, end: number, count: number): Uint32Array {
    const starts = new Uint32Array(count + 1);
    const bytes = this.bytes;
    const unit = this.unit;
    if (count === 0) {
      if (end !== start) throw new FormatError('bytes in an empty stream');
      return starts;
    }
    starts[0] = start;
    let k = 1;
    let p = start;
    if (unit === 1) {
      for (;;) {
        const at = bytes.indexOf(SEPARATOR_CODE, p);
        if (at < 0 || at >= end) break;
        if (k === count) throw new FormatError('too many values in stream');
        starts[k++] = at + 1;
        p = at + 1;
      }
    } else {
      for (; p + 1 < end; p += 2) {
        if (bytes[p] === SEPARATOR_CODE && bytes[p + 1] === 0) {
          if (k === count) throw new FormatError('too many values in stream');
          starts[k++] = p + 2;
        }
      }
    }
    if (k !== count) throw new FormatError('too few values in stream');
    starts[count] = end + unit;
    return starts;
  }

  /** Each doc's first value in each stream, checking that the shapes use up every stream. */
  private locateValues(): Uint32Array {
    const count = this.count;
    const stride = count + 1;
    const numStreams = this.streams.length;
    const first = new Uint32Array(numStreams * stride);
    const running = new Uint32Array(numStreams);
    for (let i = 0; i < count; i++) {
      const shape = this.shapes[this.shapeOf[i]!]!;
      for (let s = 0; s < numStreams; s++) first[s * stride + i] = running[s]!;
      const slots = shape.slotStream;
      for (let j = 0; j < slots.length; j++) running[slots[j]!]!++;
    }
    for (let s = 0; s < numStreams; s++) {
      first[s * stride + count] = running[s]!;
      if (running[s] !== this.streams[s]!.count) throw new FormatError('stream value count does not match the shapes');
    }
    for (const shape of this.shapes) {
      for (let j = 0; j < shape.slotKind.length; j++) {
        if (this.streams[shape.slotStream[j]!]!.kind !== shape.slotKind[j]) throw new FormatError('slot kind does not match its stream');
      }
    }
    return first;
  }
}

/** Copies src[start, end) to out[n]; returns the new end (short runs in a loop: no native call). */
function copyBytes(src: Uint8Array, start: number, end: number, out: Uint8Array, n: number): number {
  if (end - start > 40) {
    out.set(src.subarray(start, end), n);
    return n + end - start;
  }
  for (let p = start; p < end; p++) out[n++] = src[p]!;
  return n;
}

/** Writes the decimal digits of a non-negative integer below 2^53 at out[n]; returns the new end. */
function writeDigits(out: Buffer, n: number, value: number, unit: number): number {
  let digits = 1;
  for (let x = value; x >= 10; x = Math.floor(x / 10)) digits++;
  let p = n + (digits - 1) * unit;
  let x = value;
  for (let d = 0; d < digits; d++, p -= unit) {
    const q = Math.floor(x / 10);
    out[p] = 0x30 + (x - q * 10);
    if (unit === 2) out[p + 1] = 0;
    x = q;
  }
  return n + digits * unit;
}

function codingsOf(kind: number): readonly number[] {
  switch (kind) {
    case SLOT_KEYWORD_COLUMN:
    case SLOT_NUMERIC_COLUMN:
      return [CODING_NONE];
    case SLOT_STRING:
      return [CODING_TEXT, CODING_DICT, CODING_TEMPLATE];
    case SLOT_NUMBER_TEXT:
      return [CODING_TEXT];
    case SLOT_INT:
      return [CODING_INT, CODING_INT_DELTA];
    case SLOT_LITERAL:
      return [CODING_CODES];
    case SLOT_RAW:
      return [CODING_LENGTHS];
    default:
      throw new FormatError(`bad slot kind ${kind}`);
  }
}
