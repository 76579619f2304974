/**
 * Posting blobs (terms held by two docs or more): the doc ids of one term, then for text fields
 * its positions, in one of two modes chosen per term by size:
 *
 *   docs, PACKED:       packed u32 stream of docFreq gaps: doc[0], then doc[i] - doc[i-1] - 1
 *   docs, REF:          positions within an earlier term's docs (reference-postings.ts)
 *   positions, PACKED:  packed u32 stream of docFreq (freq - 1) values · zero padding to a 4-byte
 *                       boundary when the next stream has full blocks · packed u32 stream of
 *                       position gaps: per doc the first position, then pos[j] - pos[j-1]
 *   positions, DEFLATE: raw deflate (compression.ts sets the level) of the same values as varints (freqs, then gaps); chosen for
 *                       terms with many positions, whose recurring layouts deflate well
 *
 * Pure functions over typed arrays, so that they can run in a worker thread.
 */
import zlib from 'node:zlib';
import type { PositionPostings } from '../segment-reader.js';
import { decodeU32Stream, encodeU32Stream } from './bitpack.js';
import { ByteReader, FormatError } from './byte-reader.js';
import { ByteWriter } from './byte-writer.js';
import { mergeDocs } from './reference-postings.js';

export const DOCS_PACKED = 0;
/** positions in the doc list of an earlier term, plus the docs outside it (reference-postings.ts) */
export const DOCS_REF = 1;

export const POSITIONS_PACKED = 0;
export const POSITIONS_DEFLATE = 1;

/** Below this many positions deflate's own overhead eats its gain. */
const DEFLATE_MIN_POSITIONS = 64;
/** More positions than this for one term in one segment means damaged bytes. */
const MAX_POSITIONS_PER_TERM = 2 ** 28;

let gapScratch = new Uint32Array(1024);
const varints = new ByteWriter(1 << 16);

function scratch(n: number): Uint32Array {
  if (gapScratch.length < n) gapScratch = new Uint32Array(Math.max(n, gapScratch.length * 2));
  return gapScratch;
}

/** The gaps of a sorted, duplicate-free list of doc ids (in a shared scratch array). */
function docGaps(docs: Uint32Array): Uint32Array {
  const n = docs.length;
  const gaps = scratch(n);
  let prev = -1;
  for (let i = 0; i < n; i++) {
    const d = docs[i]!;
    if (d <= prev) throw new Error(`doc ids not strictly increasing at ${i}`);
    gaps[i] = d - prev - 1;
    prev = d;
  }
  return gaps;
}

/** Appends the packed docs stream of a sorted, duplicate-free list of doc ids. */
export function encodeDocIds(out: ByteWriter, docs: Uint32Array): void {
  encodeU32Stream(out, docGaps(docs), 0, docs.length);
}

/** Appends the plain docs stream of a term; returns its mode (what a REF part records). */
export function encodePostingDocs(out: ByteWriter, docs: Uint32Array): number {
  encodeDocIds(out, docs);
  return DOCS_PACKED;
}

/** Decodes a stream of `count` gaps of the given mode at bytes[pos] into out; returns its end. */
function decodeGaps(bytes: Uint8Array, pos: number, count: number, mode: number, out: Uint32Array): number {
  if (mode === DOCS_PACKED) return decodeU32Stream(bytes, pos, count, out, 0);
  throw new FormatError(`unknown docs mode ${mode}`);
}

/** Turns gaps into ids in place; throws when the last id reaches `limit`. */
function gapsToIds(ids: Uint32Array, limit: number, what: string): void {
  let acc = -1;
  for (let i = 0; i < ids.length; i++) {
    acc += ids[i]! + 1;
    ids[i] = acc;
  }
  if (acc >= limit) throw new FormatError(`${what} ${acc} out of range`);
}

/** The docs of the term of a rank, for reference-coded docs. */
export type BaseDocs = (rank: number) => Uint32Array;

/**
 * Decodes `count` doc ids at bytes[pos] into a new array; throws FormatError when an id reaches
 * `numDocs` (a damaged blob). `bytes` starts at the blob's first byte. REF needs `baseDocs`.
 */
export function decodeDocIds(
  bytes: Uint8Array,
  pos: number,
  count: number,
  numDocs: number,
  mode = DOCS_PACKED,
  baseDocs: BaseDocs | null = null,
): Uint32Array {
  if (mode === DOCS_REF) return decodeReference(bytes, pos, count, numDocs, baseDocs);
  const out = new Uint32Array(count);
  decodeGaps(bytes, pos, count, mode, out);
  gapsToIds(out, numDocs, 'doc id');
  return out;
}

function decodeReference(bytes: Uint8Array, pos: number, count: number, numDocs: number, baseDocs: BaseDocs | null): Uint32Array {
  if (baseDocs === null) throw new FormatError('reference-coded docs where none can be');
  const r = new ByteReader(bytes, pos);
  const rank = r.varint();
  const insideCount = r.varint();
  if (insideCount > count) throw new FormatError('reference holds more docs than the term');
  const base = baseDocs(rank);
  const inside = new Uint32Array(insideCount);
  const insideMode = r.u8();
  let at = (r.pos + 3) & ~3;
  if (insideCount > 0) at = decodeGaps(bytes, at, insideCount, insideMode, inside);
  gapsToIds(inside, base.length, 'index into the base docs');
  for (let i = 0; i < insideCount; i++) inside[i] = base[inside[i]!]!;
  if (at >= bytes.length) throw new FormatError('reference past end of data');
  const outsideMode = bytes[at]!;
  const outside = new Uint32Array(count - insideCount);
  at = (at + 1 + 3) & ~3;
  if (outside.length > 0) decodeGaps(bytes, at, outside.length, outsideMode, outside);
  gapsToIds(outside, numDocs, 'doc id');
  const docs = mergeDocs(inside, outside);
  for (let i = 1; i < docs.length; i++) if (docs[i]! <= docs[i - 1]!) throw new FormatError('reference docs overlap');
  return docs;
}

/** Position gaps of the first `numDocs` docs of `p`, with each doc's count in `freqs` (minus one). */
function positionGaps(p: PositionPostings, numDocs: number, freqs: Uint32Array, gaps: Uint32Array): void {
  let k = 0;
  for (let i = 0; i < numDocs; i++) {
    const start = p.offsets[i]!;
    const end = p.offsets[i + 1]!;
    if (end <= start) throw new Error('a posting without positions');
    freqs[i] = end - start - 1;
    let prev = 0;
    for (let j = start; j < end; j++) {
      const pos = p.positions[j]!;
      if (pos < prev) throw new Error('positions not ascending');
      gaps[k++] = pos - prev;
      prev = pos;
    }
  }
}

/** Appends the positions of a term after its docs stream, deflated at `level` where smaller; returns the mode used. */
export function encodePositions(out: ByteWriter, p: PositionPostings, numDocs: number, level: number): number {
  const total = p.offsets[numDocs]! - p.offsets[0]!;
  const freqs = new Uint32Array(numDocs);
  const gaps = scratch(total);
  positionGaps(p, numDocs, freqs, gaps);
  const mark = out.length;
  encodeU32Stream(out, freqs, 0, numDocs);
  if (total >= 128) out.align4();
  encodeU32Stream(out, gaps, 0, total);
  if (total < DEFLATE_MIN_POSITIONS) return POSITIONS_PACKED;
  varints.clear();
  for (let i = 0; i < numDocs; i++) varints.varint32(freqs[i]!);
  for (let i = 0; i < total; i++) varints.varint32(gaps[i]!);
  const deflated = zlib.deflateRawSync(varints.view8(), { level });
  if (deflated.length >= out.length - mark) return POSITIONS_PACKED;
  out.length = mark;
  out.bytes(deflated);
  return POSITIONS_DEFLATE;
}

/** Decodes the positions of `count` docs from bytes[pos, end). */
export function decodePositions(
  bytes: Uint8Array,
  pos: number,
  end: number,
  count: number,
  mode: number,
): { offsets: Uint32Array; positions: Uint32Array } {
  const offsets = new Uint32Array(count + 1);
  if (mode === POSITIONS_DEFLATE) return decodeDeflated(bytes.subarray(pos, end), count, offsets);
  if (mode !== POSITIONS_PACKED) throw new FormatError(`unknown positions mode ${mode}`);
  pos = decodeU32Stream(bytes, pos, count, offsets, 1);
  const total = freqsToOffsets(offsets, count);
  if (total >= 128) pos = (pos + 3) & ~3;
  const positions = new Uint32Array(total);
  decodeU32Stream(bytes, pos, total, positions, 0);
  gapsToPositions(offsets, positions, count);
  return { offsets, positions };
}

function decodeDeflated(compressed: Uint8Array, count: number, offsets: Uint32Array): { offsets: Uint32Array; positions: Uint32Array } {
  let raw: Buffer;
  try {
    raw = zlib.inflateRawSync(compressed);
  } catch {
    throw new FormatError('positions do not inflate');
  }
  let p = readVarints(raw, 0, offsets, 1, count);
  const total = freqsToOffsets(offsets, count);
  const positions = new Uint32Array(total);
  p = readVarints(raw, p, positions, 0, total);
  if (p !== raw.length) throw new FormatError('trailing bytes after positions');
  gapsToPositions(offsets, positions, count);
  return { offsets, positions };
}

/** Reads `n` varints (each below 2^32) from bytes[pos] into out[at...]; returns the end. */
function readVarints(bytes: Uint8Array, pos: number, out: Uint32Array, at: number, n: number): number {
  const end = bytes.length;
  for (let i = 0; i < n; i++) {
    if (pos >= end) throw new FormatError('positions past end of data');
    let b = bytes[pos++]!;
    if (b < 0x80) {
      out[at + i] = b;
      continue;
    }
    let v = b & 0x7f;
    let shift = 7;
    for (;;) {
      if (pos >= end) throw new FormatError('positions past end of data');
      b = bytes[pos++]!;
      if (shift === 28) {
        if (b > 0x0f) throw new FormatError('varint too long');
        v += b * 0x10000000;
        break;
      }
      v |= (b & 0x7f) << shift;
      if (b < 0x80) break;
      shift += 7;
    }
    out[at + i] = v;
  }
  return pos;
}

/** Turns offsets[1..count] holding freq - 1 into running offsets; returns the total. */
function freqsToOffsets(offsets: Uint32Array, count: number): number {
  let total = 0;
  for (let i = 1; i <= count; i++) {
    total += offsets[i]! + 1;
    offsets[i] = total;
  }
  // a damaged freq stream must not turn into a giant allocation
  if (total > MAX_POSITIONS_PER_TERM) throw new FormatError(`position count ${total} out of range`);
  return total;
}

function gapsToPositions(offsets: Uint32Array, positions: Uint32Array, count: number): void {
  for (let i = 0; i < count; i++) {
    let acc = 0;
    for (let j = offsets[i]!; j < offsets[i + 1]!; j++) {
      acc += positions[j]!;
      positions[j] = acc;
    }
  }
}
