/**
 * Column blobs: numeric columns, keyword ordinals and the `_id` column. Pure functions over typed
 * arrays. Layouts (all numbers little-endian, varints LEB128):
 *
 * numeric:  u8 kind · u8 flags (bit 0: presence bitmap follows; bit 1, format 3: the values'
 *           stream is a plane stream, plane-stream.ts, instead of a packed u32 stream) · u8 scale exponent e ·
 *           varint presentCount · [bitmap, ceil(numDocs / 8) bytes, bit d set when doc d has a
 *           value] · values of present docs in doc order, by kind:
 *             0 EMPTY  nothing (no doc has a value)
 *             1 RAW    f64 each
 *             2 FOR    f64 base · packed u32 stream of (v * 10^e - base)
 *             3 DELTA  f64 first · packed u32 stream of zigzag(v[i] * 10^e - v[i-1] * 10^e)
 *             4 DICT   varint numValues · f64 distinct values ascending · packed u32 stream of
 *                      each value's index (at most 256 distinct values: status codes, enums)
 *             5 DELTA_FOR (format 2) f64 first · f64 smallest step m · packed u32 stream of
 *                      (v[i] * 10^e - v[i-1] * 10^e - m): rising values (`_ts`) need no sign bit
 *           for FOR, DELTA and DELTA_FOR the value is the integer divided by 10^e (e in 0..4)
 * ordinals: u8 flags (bit 0: terms are the field's term dictionary; bit 1, format 3: the
 *           stream is a plane stream) · varint numTerms ·
 *           [terms: per term u8 encoding · varint byte length · bytes] ·
 *           packed u32 stream of (ord + 1) per doc
 *           (flag 4, format 3: no stream; the ordinals follow from another field's,
 *           ordinal-function.ts)
 * A plane stream is taken where it is shorter than the packed stream (skewed values).
 * ids:      u8 kind · 0 DELTA: u64 first · packed u32 stream of zigzag(id[i] - id[i-1]);
 *                     1 RAW: u64 each;
 *                     2 SPLIT: u64 first · two packed u32 streams of numDocs - 1 values: the
 *                       millisecond part (id >> 22) as zigzag(ms[i] - ms[i-1]), then the
 *                       sequence part (id & 2^22 - 1) as zigzag(seq[i] - seq[i-1]) when the
 *                       millisecond is the same, else seq[i] (src/common/ids.ts: ids are
 *                       42 bits of milliseconds and a 22-bit sequence)
 *                     3 SPLIT_PLANES (format 3): as SPLIT with two plane streams
 */
import type { OrdinalColumn } from '../segment-reader.js';
import { decodeU32Stream, encodeU32Stream } from './bitpack.js';
import { ByteReader, FormatError } from './byte-reader.js';
import { ByteWriter } from './byte-writer.js';
import { readOrdinalFunction, writeOrdinalFunction, type OrdinalFunction } from './ordinal-function.js';
import { decodePlaneStream, encodePlaneStream, writePlaneStreamIfShorter } from './plane-stream.js';
import { decodeString, encodeString, encodingFor } from './strings.js';

const EMPTY = 0;
const RAW = 1;
const FOR = 2;
const DELTA = 3;
const DICT = 4;
const DELTA_FOR = 5;
const DICT_MAX_VALUES = 256;
const MAX_SCALE_EXP = 4;
const U32_MAX = 0xffffffff;
const FLAG_BITMAP = 1;
const ORDINALS_SHARED_TERMS = 1;
/** format 3: the ordinals follow from another field's */
const ORDINALS_FUNCTION = 4;
/** format 3: the values' stream is a plane stream */
const FLAG_PLANES = 2;

function zigzag(d: number): number {
  return d >= 0 ? d * 2 : -d * 2 - 1;
}

function unzigzag(z: number): number {
  return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
}

/** The exponent e such that every value is an integer over 10^e, or -1. */
function scaleExponent(values: Float64Array): number {
  for (let e = 0; e <= MAX_SCALE_EXP; e++) {
    const s = 10 ** e;
    let ok = true;
    for (let i = 0; i < values.length && ok; i++) {
      const v = values[i]!;
      const r = Math.round(v * s);
      ok = Number.isSafeInteger(r) && (e === 0 ? r === v : r / s === v) && !(v === 0 && 1 / v < 0);
    }
    if (ok) return e;
  }
  return -1;
}

function writeHeader(w: ByteWriter, kind: number, e: number, present: number, bitmap: Uint8Array | null): void {
  w.u8(kind);
  w.u8(bitmap ? FLAG_BITMAP : 0);
  w.u8(e);
  w.varint(present);
  if (bitmap) w.bytes(bitmap);
}

/**
 * A blob whose last part is one stream of values, written packed: `planeVariant` makes the plane
 * stream variant of it. Only the smallest packed candidate is tried with planes (Brotli costs).
 */
interface StreamBlob {
  bytes: Uint8Array;
  /** offset of the flags byte that records the stream's kind */
  flagsAt: number;
  streamAt: number;
  values: Uint32Array;
  start: number;
  count: number;
}

function streamBlob(w: ByteWriter, flagsAt: number, values: Uint32Array, start: number, count: number): StreamBlob {
  const streamAt = w.length;
  encodeU32Stream(w, values, start, count);
  return { bytes: w.toBytes(), flagsAt, streamAt, values, start, count };
}

/** The blob with its stream as a plane stream when that is shorter, else its packed bytes. */
function planeVariant(b: StreamBlob): Uint8Array {
  const w = new ByteWriter(b.streamAt + 64);
  w.bytes(b.bytes.subarray(0, b.streamAt));
  if (!writePlaneStreamIfShorter(w, b.values, b.start, b.count, b.bytes.length - b.streamAt)) return b.bytes;
  const out = w.toBytes();
  out[b.flagsAt]! |= FLAG_PLANES;
  return out;
}

/** Decodes the values' stream of a blob, packed or planes as its flags say. */
function readStream(bytes: Uint8Array, pos: number, count: number, out: Uint32Array, outStart: number, planes: boolean): number {
  return planes ? decodePlaneStream(bytes, pos, count, out, outStart) : decodeU32Stream(bytes, pos, count, out, outStart);
}

/** The whole blob with integer values, or null when they do not fit the kind. */
function encodeIntegers(
  scaled: Float64Array,
  kind: typeof FOR | typeof DELTA | typeof DELTA_FOR,
  e: number,
  bitmap: Uint8Array | null,
): StreamBlob | null {
  const n = scaled.length;
  const u = new Uint32Array(n);
  const w = new ByteWriter(64 + n + (bitmap?.length ?? 0));
  // the header goes first: stream alignment is relative to the blob start
  writeHeader(w, kind, e, n, bitmap);
  if (kind === FOR) {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < n; i++) {
      const v = scaled[i]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (max - min > U32_MAX) return null;
    for (let i = 0; i < n; i++) u[i] = scaled[i]! - min;
    w.f64(min);
    return streamBlob(w, 1, u, 0, n);
  } else if (kind === DELTA_FOR) {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 1; i < n; i++) {
      const d = scaled[i]! - scaled[i - 1]!;
      if (d < min) min = d;
      if (d > max) max = d;
    }
    if (n < 2 || max - min > U32_MAX || !Number.isSafeInteger(min)) return null;
    for (let i = 1; i < n; i++) u[i] = scaled[i]! - scaled[i - 1]! - min;
    w.f64(scaled[0]!);
    w.f64(min);
    return streamBlob(w, 1, u, 1, n - 1);
  } else {
    for (let i = 1; i < n; i++) {
      const z = zigzag(scaled[i]! - scaled[i - 1]!);
      if (z > U32_MAX) return null;
      u[i] = z;
    }
    w.f64(scaled[0]!);
    return streamBlob(w, 1, u, 1, n - 1);
  }
}

/** Encodes the first `numDocs` values of a numeric column (NaN: no value). */
export function encodeNumericColumn(column: Float64Array, numDocs: number): Uint8Array {
  let present = 0;
  for (let i = 0; i < numDocs; i++) if (column[i] === column[i]) present++;
  if (present === 0) {
    const w = new ByteWriter(8);
    writeHeader(w, EMPTY, 0, 0, null);
    return w.toBytes();
  }
  const values = new Float64Array(present);
  let bitmap: Uint8Array | null = null;
  if (present < numDocs) bitmap = new Uint8Array((numDocs + 7) >>> 3);
  for (let i = 0, k = 0; i < numDocs; i++) {
    const v = column[i]!;
    if (v !== v) continue;
    values[k++] = v;
    if (bitmap) bitmap[i >>> 3]! |= 1 << (i & 7);
  }
  const candidates: Array<StreamBlob | null> = [encodeDictionary(values, bitmap)];
  const e = scaleExponent(values);
  if (e >= 0) {
    const s = 10 ** e;
    const scaled = e === 0 ? values : values.map((v) => Math.round(v * s));
    candidates.push(
      encodeIntegers(scaled, FOR, e, bitmap),
      encodeIntegers(scaled, DELTA, e, bitmap),
      encodeIntegers(scaled, DELTA_FOR, e, bitmap),
    );
  }
  let best: StreamBlob | null = null;
  for (const c of candidates) if (c !== null && (best === null || c.bytes.length < best.bytes.length)) best = c;
  if (best !== null) return planeVariant(best);
  const w = new ByteWriter(64 + present * 8 + (bitmap?.length ?? 0));
  writeHeader(w, RAW, 0, present, bitmap);
  for (let i = 0; i < present; i++) w.f64(values[i]!);
  return w.toBytes();
}

/** The DICT blob, or null with more than DICT_MAX_VALUES distinct values (or a -0). */
function encodeDictionary(values: Float64Array, bitmap: Uint8Array | null): StreamBlob | null {
  const distinct = new Set<number>();
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    // a Set takes -0 for 0
    if (v === 0 && 1 / v < 0) return null;
    distinct.add(v);
    if (distinct.size > DICT_MAX_VALUES) return null;
  }
  const table = Float64Array.from(distinct).sort();
  const index = new Map<number, number>();
  table.forEach((v, i) => index.set(v, i));
  const u = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) u[i] = index.get(values[i]!)!;
  const w = new ByteWriter(64 + values.length + table.length * 8 + (bitmap?.length ?? 0));
  writeHeader(w, DICT, 0, values.length, bitmap);
  w.varint(table.length);
  for (let i = 0; i < table.length; i++) w.f64(table[i]!);
  return streamBlob(w, 1, u, 0, values.length);
}

/** Decodes a numeric column blob into a Float64Array of `numDocs` values. */
export function decodeNumericColumn(bytes: Uint8Array, numDocs: number): Float64Array {
  const r = new ByteReader(bytes);
  const kind = r.u8();
  const flags = r.u8();
  const e = r.u8();
  const present = r.varint();
  const out = new Float64Array(numDocs).fill(NaN);
  if (kind === EMPTY) return out;
  if (present > numDocs || e > MAX_SCALE_EXP || kind > DELTA_FOR) throw new FormatError('bad numeric column header');
  const bitmap = flags & FLAG_BITMAP ? r.bytesView((numDocs + 7) >>> 3) : null;
  const planes = (flags & FLAG_PLANES) !== 0;
  if (!bitmap && present !== numDocs) throw new FormatError('numeric column count mismatch');
  const values = new Float64Array(present);
  if (kind === RAW) {
    for (let i = 0; i < present; i++) values[i] = r.f64();
  } else if (kind === DICT) {
    const nValues = r.varint();
    if (nValues > DICT_MAX_VALUES || nValues === 0) throw new FormatError('bad numeric dictionary size');
    const table = new Float64Array(nValues);
    for (let i = 0; i < nValues; i++) table[i] = r.f64();
    const u = new Uint32Array(present);
    readStream(bytes, r.pos, present, u, 0, planes);
    for (let i = 0; i < present; i++) {
      const k = u[i]!;
      if (k >= nValues) throw new FormatError('numeric dictionary index out of range');
      values[i] = table[k]!;
    }
  } else {
    const base = r.f64();
    const s = 10 ** e;
    if (kind === FOR) {
      const u = new Uint32Array(present);
      readStream(bytes, r.pos, present, u, 0, planes);
      for (let i = 0; i < present; i++) values[i] = e === 0 ? base + u[i]! : (base + u[i]!) / s;
    } else if (kind === DELTA_FOR) {
      const step = r.f64();
      const u = new Uint32Array(present);
      readStream(bytes, r.pos, present - 1, u, 1, planes);
      let acc = base;
      values[0] = e === 0 ? acc : acc / s;
      for (let i = 1; i < present; i++) {
        acc += step + u[i]!;
        values[i] = e === 0 ? acc : acc / s;
      }
    } else {
      const u = new Uint32Array(present);
      readStream(bytes, r.pos, present - 1, u, 1, planes);
      let acc = base;
      values[0] = e === 0 ? acc : acc / s;
      for (let i = 1; i < present; i++) {
        acc += unzigzag(u[i]!);
        values[i] = e === 0 ? acc : acc / s;
      }
    }
  }
  if (!bitmap) return values;
  let k = 0;
  for (let i = 0; i < numDocs; i++) {
    if (bitmap[i >>> 3]! & (1 << (i & 7))) {
      if (k >= present) throw new FormatError('numeric column bitmap mismatch');
      out[i] = values[k++]!;
    }
  }
  if (k !== present) throw new FormatError('numeric column bitmap mismatch');
  return out;
}

/**
 * Encodes an ordinal column; `sharedTerms` says that `column.terms` equals the field's term
 * dictionary, which then is not repeated here.
 */
export function encodeOrdinalColumn(column: OrdinalColumn, numDocs: number, sharedTerms: boolean, fn: OrdinalFunction | null = null): Uint8Array {
  const out = new ByteWriter(64 + (fn === null ? numDocs : 0));
  out.u8((sharedTerms ? ORDINALS_SHARED_TERMS : 0) | (fn === null ? 0 : ORDINALS_FUNCTION));
  out.varint(column.terms.length);
  if (!sharedTerms) {
    for (const t of column.terms) {
      const enc = encodingFor(t);
      out.u8(enc);
      out.lenBytes(encodeString(t, enc));
    }
  }
  if (fn !== null) {
    writeOrdinalFunction(out, fn);
    return out.toBytes();
  }
  const u = new Uint32Array(numDocs);
  for (let i = 0; i < numDocs; i++) u[i] = column.ords[i]! + 1;
  return planeVariant(streamBlob(out, 0, u, 0, numDocs));
}

export interface DecodedOrdinals {
  /** empty when `fn` gives them */
  ords: Int32Array;
  /** the ordinals follow from another field's (ordinal-function.ts) */
  fn: OrdinalFunction | null;
  /** null when the terms are those of the field's term dictionary */
  terms: string[] | null;
  numTerms: number;
}

export function decodeOrdinalColumn(bytes: Uint8Array, numDocs: number): DecodedOrdinals {
  const r = new ByteReader(bytes);
  const flags = r.u8();
  const shared = (flags & ORDINALS_SHARED_TERMS) !== 0;
  const numTerms = r.varint();
  let terms: string[] | null = null;
  if (!shared) {
    terms = [];
    for (let i = 0; i < numTerms; i++) {
      const enc = r.u8();
      const len = r.varint();
      const start = r.pos;
      r.bytesView(len);
      terms.push(decodeString(bytes, start, start + len, enc));
    }
  }
  if (flags & ORDINALS_FUNCTION) return { ords: new Int32Array(0), fn: readOrdinalFunction(r, bytes, numTerms), terms, numTerms };
  const u = new Uint32Array(numDocs);
  readStream(bytes, r.pos, numDocs, u, 0, (flags & FLAG_PLANES) !== 0);
  const ords = new Int32Array(u.buffer);
  for (let i = 0; i < numDocs; i++) {
    const o = u[i]! - 1;
    if (o >= numTerms) throw new FormatError('ordinal out of range');
    ords[i] = o;
  }
  return { ords, fn: null, terms, numTerms };
}

const IDS_DELTA = 0;
const IDS_RAW = 1;
const IDS_SPLIT = 2;
/** format 3: SPLIT with plane streams */
const IDS_SPLIT_PLANES = 3;
const TWO32 = 2 ** 32;
const SEQUENCE_BITS = 22;
const SEQUENCE_MASK = (1 << SEQUENCE_BITS) - 1;

/** The millisecond part (id >> 22) of the id whose 32-bit halves are `lo`, `hi`. */
function msPart(lo: number, hi: number): number {
  return hi * 2 ** (32 - SEQUENCE_BITS) + (lo >>> SEQUENCE_BITS);
}

/** The SPLIT streams of ids[1..], or null when a millisecond step does not fit 31 bits. */
function splitStreams(halves: Uint32Array, numDocs: number): [Uint32Array, Uint32Array] | null {
  const ms = new Uint32Array(numDocs);
  const seq = new Uint32Array(numDocs);
  let prevMs = msPart(halves[0]!, halves[1]!);
  let prevSeq = halves[0]! & SEQUENCE_MASK;
  for (let i = 1; i < numDocs; i++) {
    const m = msPart(halves[2 * i]!, halves[2 * i + 1]!);
    const q = halves[2 * i]! & SEQUENCE_MASK;
    const z = zigzag(m - prevMs);
    if (z > U32_MAX) return null;
    ms[i] = z;
    seq[i] = m === prevMs ? zigzag(q - prevSeq) : q;
    prevMs = m;
    prevSeq = q;
  }
  return [ms, seq];
}

/** Encodes the first `numDocs` `_id` values: the smaller of DELTA and SPLIT, else RAW. */
export function encodeIdColumn(ids: BigUint64Array, numDocs: number): Uint8Array {
  if (numDocs === 0) return Uint8Array.of(IDS_RAW);
  // the 64-bit ids as (lo, hi) u32 pairs, so gaps are computed without BigInt
  const halves = new Uint32Array(ids.buffer, ids.byteOffset, numDocs * 2);
  const candidates: Uint8Array[] = [];
  const z = new Uint32Array(numDocs);
  let fits = true;
  for (let i = 1; i < numDocs && fits; i++) {
    const d = (halves[2 * i + 1]! - halves[2 * i - 1]!) * TWO32 + (halves[2 * i]! - halves[2 * i - 2]!);
    const zz = zigzag(d);
    if (zz > U32_MAX) fits = false;
    else z[i] = zz;
  }
  if (fits) {
    const out = new ByteWriter(16 + numDocs * 2);
    out.u8(IDS_DELTA);
    out.u64(ids[0]!);
    encodeU32Stream(out, z, 1, numDocs - 1);
    candidates.push(out.toBytes());
  }
  const split = splitStreams(halves, numDocs);
  if (split !== null) {
    const out = new ByteWriter(16 + numDocs);
    out.u8(IDS_SPLIT);
    out.u64(ids[0]!);
    encodeU32Stream(out, split[0], 1, numDocs - 1);
    encodeU32Stream(out, split[1], 1, numDocs - 1);
    candidates.push(out.toBytes());
    if (numDocs > 1) {
      // ids handed out in runs: the same steps over and over, which Brotli codes in far fewer bits
      const planes = new ByteWriter(16 + numDocs / 8);
      planes.u8(IDS_SPLIT_PLANES);
      planes.u64(ids[0]!);
      planes.bytes(encodePlaneStream(split[0], 1, numDocs - 1));
      planes.bytes(encodePlaneStream(split[1], 1, numDocs - 1));
      candidates.push(planes.toBytes());
    }
  }
  if (candidates.length > 0) return candidates.reduce((a, b) => (b.length < a.length ? b : a));
  const out = new ByteWriter(16 + numDocs * 8);
  out.u8(IDS_RAW);
  for (let i = 0; i < numDocs; i++) out.u64(ids[i]!);
  return out.toBytes();
}

export function decodeIdColumn(bytes: Uint8Array, numDocs: number): BigUint64Array {
  const r = new ByteReader(bytes);
  const kind = r.u8();
  const ids = new BigUint64Array(numDocs);
  if (numDocs === 0) return ids;
  if (kind === IDS_RAW) {
    for (let i = 0; i < numDocs; i++) ids[i] = r.u64();
    return ids;
  }
  if (kind === IDS_SPLIT || kind === IDS_SPLIT_PLANES) return decodeSplitIds(bytes, r, ids, numDocs, kind === IDS_SPLIT_PLANES);
  if (kind !== IDS_DELTA) throw new FormatError('bad id column kind');
  ids[0] = r.u64();
  const z = new Uint32Array(numDocs);
  decodeU32Stream(bytes, r.pos, numDocs - 1, z, 1);
  const halves = new Uint32Array(ids.buffer);
  let lo = halves[0]!;
  let hi = halves[1]!;
  for (let i = 1; i < numDocs; i++) {
    lo += unzigzag(z[i]!);
    // |gap| < 2^31, so one carry or borrow at most
    if (lo >= TWO32) {
      lo -= TWO32;
      hi++;
    } else if (lo < 0) {
      lo += TWO32;
      hi--;
    }
    halves[2 * i] = lo;
    halves[2 * i + 1] = hi;
  }
  return ids;
}

function decodeSplitIds(bytes: Uint8Array, r: ByteReader, ids: BigUint64Array, numDocs: number, planes: boolean): BigUint64Array {
  ids[0] = r.u64();
  const ms = new Uint32Array(numDocs);
  const seq = new Uint32Array(numDocs);
  if (numDocs > 1) {
    const pos = readStream(bytes, r.pos, numDocs - 1, ms, 1, planes);
    readStream(bytes, pos, numDocs - 1, seq, 1, planes);
  }
  const halves = new Uint32Array(ids.buffer);
  let m = msPart(halves[0]!, halves[1]!);
  let q = halves[0]! & SEQUENCE_MASK;
  const msLow = 2 ** (32 - SEQUENCE_BITS);
  for (let i = 1; i < numDocs; i++) {
    const step = unzigzag(ms[i]!);
    m += step;
    q = step === 0 ? q + unzigzag(seq[i]!) : seq[i]!;
    if (m < 0 || m >= 2 ** 42 || q < 0 || q > SEQUENCE_MASK) throw new FormatError('id out of range');
    halves[2 * i] = ((m % msLow) * 2 ** SEQUENCE_BITS + q) >>> 0;
    halves[2 * i + 1] = Math.floor(m / msLow);
  }
  return ids;
}
