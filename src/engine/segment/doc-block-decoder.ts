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
  CODING_TEXT,
  SEPARATOR_CODE,
  unzigzag,
} from './doc-block-layout.js';
import type { DocBlock, SourceColumns } from './doc-block.js';
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
}

let scratch = Buffer.allocUnsafe(64 << 10);

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
    this.byteSize = bytes.length + this.firstValue.byteLength + count * 4 + numStreams * 64;
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
      n += bytes.copy(out, n, ls, le);
      if (j === slots) break;
      const s = shape.slotStream[j]!;
      const stream = this.streams[s]!;
      const k = this.firstValue[s * stride + i]! + shape.slotOccurrence[j]!;
      if (stream.coding === CODING_NONE) {
        const value = columnText(stream, doc, columns);
        out = ensureScratch(n + value.length * 3);
        n += out.write(value, n, this.encoding);
      } else if (stream.numbers !== null) {
        out = ensureScratch(n + 64);
        n += out.write(String(stream.numbers[k]!), n, this.encoding);
      } else if (stream.codes !== null) {
        out = ensureScratch(n + 16);
        n += out.write(LITERAL_TEXTS[stream.codes[k]!]!, n, this.encoding);
      } else {
        const starts = stream.starts!;
        const e = stream.ords === null ? k : stream.ords[k]!;
        const vs = starts[e]!;
        const ve = starts[e + 1]! - (stream.coding === CODING_LENGTHS ? 0 : this.unit);
        if (n + (ve - vs) > out.length) out = ensureScratch(n + (ve - vs));
        n += bytes.copy(out, n, vs, ve);
      }
    }
    return out.toString(this.encoding, 0, n);
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
    const stream: DecodedStream = { kind, key, coding, count, starts: null, ords: null, numbers: null, codes: null };
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

/** The text of a column slot's value: the keyword term, or the number as JavaScript prints it. */
function columnText(stream: DecodedStream, doc: number, columns: SourceColumns): string {
  if (stream.kind === SLOT_KEYWORD_COLUMN) {
    const term = columns.keywordOf(stream.key, doc);
    if (term === undefined) throw new FormatError(`no keyword value of ${stream.key} for doc ${doc}`);
    return term;
  }
  const v = columns.numberOf(stream.key, doc);
  if (v !== v) throw new FormatError(`no numeric value of ${stream.key} for doc ${doc}`);
  return String(v);
}

function codingsOf(kind: number): readonly number[] {
  switch (kind) {
    case SLOT_KEYWORD_COLUMN:
    case SLOT_NUMERIC_COLUMN:
      return [CODING_NONE];
    case SLOT_STRING:
      return [CODING_TEXT, CODING_DICT];
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
