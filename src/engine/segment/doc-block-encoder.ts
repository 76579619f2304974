/**
 * Builds one column-wise doc block (layout in doc-block-layout.ts). Each source is split by the
 * SourceScanner into a shape and values. A value that is the doc's value in the column of the
 * field its key names (`_ts`, `_lid`, keyword terms, numbers: all stored anyway) is not stored
 * again: its slot is marked as a column slot. The other values go to the stream of their key and
 * kind: strings with few distinct values as dictionary indexes, canonical integers as varints
 * (delta-coded when shorter), the long free text (`_line`) as one text stream, which the block
 * compressor then sees as one run of similar lines. Sources that are not flat objects are kept
 * whole. Shapes are numbered per block.
 */
import type { OrdinalColumn } from '../segment-reader.js';
import { ByteWriter } from './byte-writer.js';
import { ContextGroups } from './context-groups.js';
import {
  CODING_CODES,
  CODING_DICT,
  CODING_INT,
  CODING_INT_DELTA,
  CODING_LENGTHS,
  CODING_NONE,
  CODING_TEMPLATE,
  CODING_TEXT,
  MAX_TEMPLATE_DIGITS,
  HEX_MARK,
  MAX_HEX_BYTES,
  MIN_HEX_BYTES,
  NUMBER_MARK,
  SEPARATOR_CODE,
  VALUE_SEPARATOR,
  numberContext,
  zigzag,
} from './doc-block-layout.js';
import {
  SLOT_INT,
  SLOT_KEYWORD_COLUMN,
  SLOT_LITERAL,
  SLOT_NUMBER_TEXT,
  SLOT_NUMERIC_COLUMN,
  SLOT_RAW,
  SLOT_STRING,
  SourceScanner,
} from './source-scanner.js';
import { UTF16, UTF8, encodeString, isWellFormed, type StringEncoding } from './strings.js';

/** The columns the segment file holds, by field name, indexed by segment doc id. */
export interface WrittenColumns {
  numeric(field: string): Float64Array | null;
  keyword(field: string): OrdinalColumn | null;
}

const RAW_SHAPE = String.fromCharCode(SLOT_RAW);
/** A string stream stops counting distinct values past this many (and past a quarter of its values). */
const DICT_MAX_DISTINCT = 256;
/** Slots past this index never take their value from a column (the choice is a bit mask). */
const MAX_COLUMN_SLOTS = 30;
/** Scanned shapes remembered across blocks, at most (sources of ever new keys must not pile up). */
const MAX_SCANNED_SHAPES = 4096;

/** A shape as the scanner gives it: value kinds only. */
interface ScannedShape {
  readonly text: string;
  /** the text between the values, and the values' kinds: what `SourceScanner.hasShape` compares */
  readonly pieces: string[];
  readonly kinds: Uint8Array;
  /** per slot: the keyword or numeric column of its key's field, or null */
  readonly keyword: Array<OrdinalColumn | null>;
  readonly numeric: Array<Float64Array | null>;
  /** the stored shapes of this scanned shape, by the bit mask of slots taken from columns */
  readonly variants: Map<number, Shape>;
}

interface Shape {
  readonly id: number;
  readonly text: string;
  /** the stream of each slot, in slot order */
  readonly streams: number[];
}

class ValueStream {
  /** strings: raw string content, number texts, whole sources */
  readonly texts: string[] = [];
  /** integers and literal codes */
  readonly numbers: number[] = [];
  /** values of a column slot (nothing stored) */
  columnUses = 0;

  constructor(
    readonly kind: number,
    readonly key: string,
  ) {}

  get count(): number {
    if (this.kind === SLOT_KEYWORD_COLUMN || this.kind === SLOT_NUMERIC_COLUMN) return this.columnUses;
    return this.kind === SLOT_INT || this.kind === SLOT_LITERAL ? this.numbers.length : this.texts.length;
  }
}

function varintBytes(v: number): number {
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 0x80);
    n++;
  }
  return n;
}

export class DocBlockEncoder {
  private readonly scanner = new SourceScanner();
  /** scanned shapes, kept across blocks (their column lookups stay valid for the segment) */
  private readonly scanned = new Map<string, ScannedShape>();
  /** the scanned shapes by the fingerprint of their piece lengths and slot kinds */
  private readonly byFingerprint = new Map<number, ScannedShape[]>();
  private shapeList: Shape[] = [];
  private streams: ValueStream[] = [];
  private readonly streamIndex = new Map<string, number>();
  private shapeIds: number[] = [];
  private wellFormed = true;
  /** UTF-16 code units of the sources added since the last `finish` */
  chars = 0;

  constructor(private readonly columns: WrittenColumns) {}

  get count(): number {
    return this.shapeIds.length;
  }

  /** Adds the source of segment doc `doc`. */
  add(text: string, doc: number): void {
    this.chars += text.length;
    if (this.wellFormed && !isWellFormed(text)) this.wellFormed = false;
    const scanner = this.scanner;
    if (!scanner.scan(text)) {
      this.addWhole(text);
      return;
    }
    const scanned = this.scannedShape();
    const slots = scanner.slotCount;
    let mask = 0;
    for (let slot = 0; slot < slots && slot < MAX_COLUMN_SLOTS; slot++) {
      if (this.fromColumn(scanned, slot, text, doc)) mask |= 1 << slot;
    }
    const shape = scanned.variants.get(mask) ?? this.addShape(scanned, mask);
    this.shapeIds.push(shape.id);
    for (let slot = 0; slot < slots; slot++) {
      const stream = this.streams[shape.streams[slot]!]!;
      if (slot < MAX_COLUMN_SLOTS && mask & (1 << slot)) {
        stream.columnUses++;
        continue;
      }
      const kind = scanner.slotKind[slot]!;
      if (kind === SLOT_INT || kind === SLOT_LITERAL) stream.numbers.push(scanner.valueNumber[slot]!);
      else stream.texts.push(text.slice(scanner.valueStart[slot]!, scanner.valueEnd[slot]!));
    }
  }

  /**
   * The scanned shape of the doc just scanned, found by a fingerprint of its piece lengths and
   * slot kinds and checked piece by piece, so that no shape string is built for a known shape.
   */
  private scannedShape(): ScannedShape {
    const fingerprint = this.scanner.fingerprint();
    const candidates = this.byFingerprint.get(fingerprint);
    if (candidates !== undefined) {
      for (const c of candidates) if (this.scanner.hasShape(c.pieces, c.kinds)) return c;
    }
    const text = this.scanner.shape();
    const found = this.scanned.get(text) ?? this.addScanned(text);
    if (candidates === undefined) this.byFingerprint.set(fingerprint, [found]);
    else candidates.push(found);
    return found;
  }

  /** True when the value in `slot` is the text of the doc's value in its key's column. */
  private fromColumn(scanned: ScannedShape, slot: number, text: string, doc: number): boolean {
    const s = this.scanner;
    const kind = s.slotKind[slot]!;
    if (kind === SLOT_LITERAL) return false;
    const numeric = scanned.numeric[slot];
    if (numeric) {
      const v = numeric[doc]!;
      if (v !== v) return false;
      // String(v) is what the reader writes back; for a canonical integer comparing numbers says the same
      if (kind === SLOT_INT) return s.valueNumber[slot] === v;
      const start = s.valueStart[slot]!;
      const end = s.valueEnd[slot]!;
      return end - start <= 24 && text.slice(start, end) === String(v);
    }
    const keyword = scanned.keyword[slot];
    if (keyword) {
      const o = keyword.ords[doc]!;
      if (o < 0) return false;
      const term = keyword.terms[o]!;
      const start = s.valueStart[slot]!;
      return term.length === s.valueEnd[slot]! - start && text.startsWith(term, start);
    }
    return false;
  }

  private addWhole(text: string): void {
    let shape = this.shapeList.find((s) => s.text === RAW_SHAPE);
    if (shape === undefined) {
      shape = { id: this.shapeList.length, text: RAW_SHAPE, streams: [this.stream(SLOT_RAW, '')] };
      this.shapeList.push(shape);
    }
    this.shapeIds.push(shape.id);
    this.streams[shape.streams[0]!]!.texts.push(text);
  }

  private addScanned(text: string): ScannedShape {
    const s = this.scanner;
    const keyword: Array<OrdinalColumn | null> = [];
    const numeric: Array<Float64Array | null> = [];
    for (let slot = 0; slot < s.slotCount; slot++) {
      const field = s.source.slice(s.keyStart[slot]!, s.keyEnd[slot]!);
      numeric.push(this.columns.numeric(field));
      keyword.push(numeric[slot] ? null : this.columns.keyword(field));
    }
    const pieces: string[] = [];
    for (let j = 0; j <= s.slotCount; j++) pieces.push(s.piece(j));
    const kinds = s.slotKind.slice(0, s.slotCount);
    const scanned: ScannedShape = { text, pieces, kinds, keyword, numeric, variants: new Map() };
    this.scanned.set(text, scanned);
    return scanned;
  }

  /** The stored shape: the scanned one with the slots of `mask` marked as column slots. */
  private addShape(scanned: ScannedShape, mask: number): Shape {
    const s = this.scanner;
    const streams: number[] = [];
    let text = '';
    let slot = 0;
    let from = 0;
    const shapeText = scanned.text;
    for (let p = 0; p < shapeText.length; p++) {
      const c = shapeText.charCodeAt(p);
      if (c >= 0x20 || c < SLOT_STRING || c > SLOT_RAW) continue;
      const key = s.source.slice(s.keyStart[slot]!, s.keyEnd[slot]!);
      let kind = c;
      if (slot < MAX_COLUMN_SLOTS && mask & (1 << slot)) kind = scanned.numeric[slot] ? SLOT_NUMERIC_COLUMN : SLOT_KEYWORD_COLUMN;
      text += shapeText.slice(from, p) + String.fromCharCode(kind);
      from = p + 1;
      streams.push(this.stream(kind, key));
      slot++;
    }
    text += shapeText.slice(from);
    const shape: Shape = { id: this.shapeList.length, text, streams };
    scanned.variants.set(mask, shape);
    this.shapeList.push(shape);
    return shape;
  }

  private stream(kind: number, key: string): number {
    const id = String.fromCharCode(kind) + key;
    let index = this.streamIndex.get(id);
    if (index === undefined) {
      index = this.streams.length;
      this.streams.push(new ValueStream(kind, key));
      this.streamIndex.set(id, index);
    }
    return index;
  }

  /** The uncompressed block of the docs added since the last call; starts a new block. */
  finish(): Uint8Array {
    const enc: StringEncoding = this.wellFormed ? UTF8 : UTF16;
    const count = this.shapeIds.length;
    const datas = this.streams.map((s) => encodeStream(s, enc));
    let dataBytes = 0;
    for (const d of datas) dataBytes += d.bytes.length;
    const w = new ByteWriter(1024 + count * 2 + dataBytes);
    w.u8(enc);
    w.varint(count);
    w.varint(this.shapeList.length);
    for (const shape of this.shapeList) {
      w.lenBytes(encodeString(shape.text, enc));
      for (const s of shape.streams) w.varint(s);
    }
    w.varint(this.streams.length);
    this.streams.forEach((s, i) => {
      w.u8(s.kind);
      w.u8(datas[i]!.coding);
      w.varint(s.count);
      w.varint(datas[i]!.bytes.length);
      w.lenBytes(encodeString(s.key, enc));
    });
    for (let i = 0; i < count; i++) w.varint(this.shapeIds[i]!);
    for (const d of datas) w.bytes(d.bytes);
    this.reset();
    return w.view8();
  }

  private reset(): void {
    if (this.scanned.size > MAX_SCANNED_SHAPES) {
      this.scanned.clear();
      this.byFingerprint.clear();
    }
    for (const s of this.scanned.values()) s.variants.clear();
    this.shapeList = [];
    this.streams = [];
    this.streamIndex.clear();
    this.shapeIds = [];
    this.wellFormed = true;
    this.chars = 0;
  }
}

interface EncodedStream {
  coding: number;
  bytes: Uint8Array;
}

const NO_BYTES = new Uint8Array(0);

function encodeStream(s: ValueStream, enc: StringEncoding): EncodedStream {
  switch (s.kind) {
    case SLOT_INT:
      return encodeIntegers(s.numbers);
    case SLOT_LITERAL:
      return { coding: CODING_CODES, bytes: Uint8Array.from(s.numbers) };
    case SLOT_RAW:
      return encodeWhole(s.texts, enc);
    case SLOT_STRING:
      return encodeStrings(s.texts, enc);
    case SLOT_NUMBER_TEXT:
      return { coding: CODING_TEXT, bytes: encodeString(s.texts.join(VALUE_SEPARATOR), enc) };
    case SLOT_KEYWORD_COLUMN:
    case SLOT_NUMERIC_COLUMN:
      return { coding: CODING_NONE, bytes: NO_BYTES };
    default:
      throw new Error(`no stream for slot kind ${s.kind}`);
  }
}

function encodeIntegers(values: readonly number[]): EncodedStream {
  let plain = 0;
  let delta = 0;
  let prev = 0;
  for (const v of values) {
    plain += varintBytes(zigzag(v));
    delta += varintBytes(zigzag(v - prev));
    prev = v;
  }
  const useDelta = delta < plain;
  const w = new ByteWriter(Math.min(plain, delta) + 8);
  prev = 0;
  for (const v of values) {
    w.varint(zigzag(useDelta ? v - prev : v));
    prev = v;
  }
  return { coding: useDelta ? CODING_INT_DELTA : CODING_INT, bytes: w.view8() };
}

/** Dictionary indexes when few distinct values repeat, else the text (numbers apart if any). */
function encodeStrings(values: readonly string[], enc: StringEncoding): EncodedStream {
  const limit = Math.max(DICT_MAX_DISTINCT, values.length >>> 2);
  const index = new Map<string, number>();
  let distinctChars = 0;
  let totalChars = 0;
  for (const v of values) {
    totalChars += v.length + 1;
    if (index.has(v)) continue;
    if (index.size === limit) return encodeText(values, enc);
    index.set(v, index.size);
    distinctChars += v.length + 1;
  }
  const wide = index.size > DICT_MAX_DISTINCT;
  if (distinctChars + values.length * (wide ? 2 : 1) >= totalChars) return encodeText(values, enc);
  const dict = encodeString([...index.keys()].join(VALUE_SEPARATOR), enc);
  const w = new ByteWriter(16 + dict.length + values.length * (wide ? 3 : 1));
  w.varint(index.size);
  w.lenBytes(dict);
  for (const v of values) {
    const i = index.get(v)!;
    if (wide) w.varint(i);
    else w.u8(i);
  }
  return { coding: CODING_DICT, bytes: w.view8() };
}

function encodeText(values: readonly string[], enc: StringEncoding): EncodedStream {
  return encodeTemplate(values, enc) ?? { coding: CODING_TEXT, bytes: encodeString(values.join(VALUE_SEPARATOR), enc) };
}

/**
 * CODING_TEMPLATE (doc-block-layout.ts), or null when no value holds a number or one holds the
 * mark itself.
 */
/** Appends code unit c (and for a surrogate pair the next one, at v[i + 1]) to `out`; returns units used. */
function putChar(out: Uint8Array, o: number, v: string, i: number, c: number, utf16: boolean): number {
  if (utf16) {
    out[o] = c & 0xff;
    out[o + 1] = c >>> 8;
    return o + 2;
  }
  if (c < 0x80) {
    out[o] = c;
    return o + 1;
  }
  if (c < 0x800) {
    out[o] = 0xc0 | (c >>> 6);
    out[o + 1] = 0x80 | (c & 0x3f);
    return o + 2;
  }
  if (c >= 0xd800 && c <= 0xdbff) {
    // a UTF-8 block holds no lone surrogate: this is a pair
    const cp = 0x10000 + ((c - 0xd800) << 10) + (v.charCodeAt(i + 1) - 0xdc00);
    out[o] = 0xf0 | (cp >>> 18);
    out[o + 1] = 0x80 | ((cp >>> 12) & 0x3f);
    out[o + 2] = 0x80 | ((cp >>> 6) & 0x3f);
    out[o + 3] = 0x80 | (cp & 0x3f);
    return o + 4;
  }
  out[o] = 0xe0 | (c >>> 12);
  out[o + 1] = 0x80 | ((c >>> 6) & 0x3f);
  out[o + 2] = 0x80 | (c & 0x3f);
  return o + 3;
}

const HEX_VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;

function isHexDigit(b: number): boolean {
  return HEX_VALUE[b]! >= 0;
}

function isWordChar(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f;
}

/**
 * The end of a hex token starting at bytes[p]: an even run of 2 * MIN_HEX_BYTES to
 * 2 * MAX_HEX_BYTES lowercase hex digits (not a number the template takes apart: digits only and
 * short enough) followed by no word character; 0 when there is none.
 */
function hexTokenEnd(bytes: Uint8Array, p: number, end: number, unit: number): number {
  let q = p;
  let letters = 0;
  while (q < end && (unit === 1 || bytes[q + 1] === 0) && isHexDigit(bytes[q]!)) {
    if (bytes[q]! > 0x39) letters++;
    q += unit;
  }
  const digits = (q - p) / unit;
  if (digits % 2 !== 0 || digits < 2 * MIN_HEX_BYTES || digits > 2 * MAX_HEX_BYTES) return 0;
  if (letters === 0 && digits <= MAX_TEMPLATE_DIGITS) return 0;
  if (q < end && (unit === 1 || bytes[q + 1] === 0) && isWordChar(bytes[q]!)) return 0;
  return q;
}

/** The context key of a number about to be written at out[o] in a value starting at out[start]. */
function contextBefore(out: Uint8Array, start: number, o: number, unit: number): number {
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  let taken = 0;
  for (let q = o - unit; q >= start && taken < 3; q -= unit) {
    const u = unit === 1 ? out[q]! : out[q]! | (out[q + 1]! << 8);
    if (u >= 0x80) break;
    if (taken === 0) c1 = u;
    else if (taken === 1) c2 = u;
    else c3 = u;
    taken++;
  }
  return numberContext(taken, c1, c2, c3);
}

/**
 * CODING_TEMPLATE (doc-block-layout.ts), or null when no value holds a number or one holds the
 * mark itself. One pass per value writes the template bytes and takes the numbers out.
 */
function encodeTemplate(values: readonly string[], enc: StringEncoding): EncodedStream | null {
  const utf16 = enc === UTF16;
  // 3 bytes per code unit at most (a surrogate pair: 4 bytes for 2), 2 in UTF-16
  let capacity = 16;
  for (const v of values) capacity += v.length * 3 + 2;
  const text = Buffer.allocUnsafe(capacity);
  let o = 0;
  const groups = new ContextGroups();
  /** per hex token: u8 byte count · bytes */
  const hex = new ByteWriter(256);
  let hexTokens = 0;
  let numberGroup = new Uint32Array(1024);
  let numberValue = new Float64Array(1024);
  let numbers = 0;
  const unit = utf16 ? 2 : 1;
  const encoding = utf16 ? 'utf16le' : 'utf8';
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    if (k > 0) o = putChar(text, o, v, 0, SEPARATOR_CODE, utf16);
    // the value's bytes are written natively, then compacted in place: digit runs become marks
    const valueStart = o;
    const end = o + text.write(v, o, encoding);
    let w = o;
    let afterWordChar = false;
    for (let p = o; p < end; p += unit) {
      const b = text[p]!;
      const ascii = unit === 1 || text[p + 1] === 0;
      if (ascii && !afterWordChar && isHexDigit(b)) {
        const q = hexTokenEnd(text, p, end, unit);
        if (q > 0) {
          hex.u8((q - p) / unit / 2);
          for (let d = p; d < q; d += 2 * unit) hex.u8((HEX_VALUE[text[d]!]! << 4) | HEX_VALUE[text[d + unit]!]!);
          hexTokens++;
          text[w] = HEX_MARK;
          if (unit === 2) text[w + 1] = 0;
          w += unit;
          p = q - unit;
          afterWordChar = true;
          continue;
        }
      }
      afterWordChar = ascii && isWordChar(b);
      if (b < 0x30 || b > 0x39 || !ascii) {
        if ((b === NUMBER_MARK || b === HEX_MARK) && ascii) return null;
        text[w] = b;
        if (unit === 2) text[w + 1] = text[p + 1]!;
        w += unit;
        continue;
      }
      let q = p + unit;
      while (q < end && text[q]! >= 0x30 && text[q]! <= 0x39 && (unit === 1 || text[q + 1] === 0)) q += unit;
      const digits = (q - p) / unit;
      if (digits <= MAX_TEMPLATE_DIGITS && (digits === 1 || b !== 0x30)) {
        let n = 0;
        for (let d = p; d < q; d += unit) n = n * 10 + (text[d]! - 0x30);
        if (numbers === numberValue.length) {
          const g = new Uint32Array(numbers * 2);
          g.set(numberGroup);
          numberGroup = g;
          const nv = new Float64Array(numbers * 2);
          nv.set(numberValue);
          numberValue = nv;
        }
        // the context is read back from the template bytes, as the decoder reads it
        numberGroup[numbers] = groups.groupOf(contextBefore(text, valueStart, w, unit));
        numberValue[numbers++] = n;
        text[w] = NUMBER_MARK;
        if (unit === 2) text[w + 1] = 0;
        w += unit;
      } else {
        text.copyWithin(w, p, q);
        w += q - p;
      }
      p = q - unit;
    }
    o = w;
  }
  if (numbers === 0 && hexTokens === 0) return null;
  const w = new ByteWriter(16 + o + numbers * 3 + hex.length);
  w.varint(o);
  w.bytes(text.subarray(0, o));
  // group by group, in order within a group: a counting sort by group number
  const next = new Uint32Array(groups.size + 1);
  for (let i = 0; i < numbers; i++) next[numberGroup[i]! + 1]!++;
  for (let g = 0; g < groups.size; g++) next[g + 1]! += next[g]!;
  const ordered = new Float64Array(numbers);
  for (let i = 0; i < numbers; i++) ordered[next[numberGroup[i]!]!++] = numberValue[i]!;
  for (let i = 0; i < numbers; i++) w.varint(ordered[i]!);
  w.bytes(hex.view8());
  return { coding: CODING_TEMPLATE, bytes: w.view8() };
}

function encodeWhole(texts: readonly string[], enc: StringEncoding): EncodedStream {
  const encoded = texts.map((t) => encodeString(t, enc));
  const w = new ByteWriter(16 + texts.length * 3);
  for (const b of encoded) w.varint(b.length);
  for (const b of encoded) w.bytes(b);
  return { coding: CODING_LENGTHS, bytes: w.view8() };
}
