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
import {
  CODING_CODES,
  CODING_DICT,
  CODING_INT,
  CODING_INT_DELTA,
  CODING_LENGTHS,
  CODING_NONE,
  CODING_TEXT,
  VALUE_SEPARATOR,
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
import { encodeTemplate, type EncodedStream } from './template-encoder.js';

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

function encodeWhole(texts: readonly string[], enc: StringEncoding): EncodedStream {
  const encoded = texts.map((t) => encodeString(t, enc));
  const w = new ByteWriter(16 + texts.length * 3);
  for (const b of encoded) w.varint(b.length);
  for (const b of encoded) w.bytes(b);
  return { coding: CODING_LENGTHS, bytes: w.view8() };
}
