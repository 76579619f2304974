/**
 * Term dictionary of one field: its sorted terms in blocks of 128, front coded and compressed, and
 * a sparse index (each block's first term, offset, length, CRC-32) kept in the footer, so that a
 * lookup is a binary search in memory plus one block read. Stored block:
 *
 *   u8 flags (bit 0: strings are UTF-16LE, else UTF-8; bit 1: the rest is raw-deflated;
 *   bit 2, format 3: the rest is Brotli) ·
 *   varint count · varint blobBase (file offset of the block's first posting blob) · per term:
 *   varint shared prefix bytes · varint suffix bytes · suffix · varint docFreq ·
 *     fields with derived postings: nothing more
 *     inline terms (docFreq 1; format 3: docFreq up to INLINE_MAX_DOCS):
 *                [format 1 and 2: varint doc] · [text fields: per doc varint freq · varint
 *                position gaps (first absolute)]
 *     otherwise: varint docsLen * 2 + docs mode (format 1: varint docsLen, packed docs) ·
 *                [text fields: varint positionsLen * 2 + positions mode]
 *   format 3, when the block holds inline terms: u8 width · their docs, in term order, as
 *   width-bit values (bit b is bit b % 8 of byte b / 8)
 *
 * Suffix bytes: varint (length * 2 + hex) · the bytes, or with hex set (UTF-8 suffixes of 2+
 * lowercase hex digits: numbers, ids, hashes) two digits per byte, the first in the low nibble.
 * Terms held by a few docs (most of a log's distinct tokens) live inline: no blob, no second
 * read. Their docs are random across the segment, so a varint spent 24 bits on each where the bit
 * length of the largest (18 bits for 200,000 docs) suffices, and a blob paid a length byte per
 * stream and two lengths in the entry. A term's blob starts where the
 * previous blob ends. Single-valued keyword fields with few terms store no blobs at all: their
 * postings are read off the ordinal column ("derived").
 */
import zlib from 'node:zlib';
import type { PositionPostings } from '../segment-reader.js';
import { ByteReader, FormatError } from './byte-reader.js';
import { ByteWriter } from './byte-writer.js';
import { checksum } from './checksum.js';
import { UTF16, UTF8, decodeString, encodeString, isWellFormed, type StringEncoding } from './strings.js';

export const TERMS_PER_BLOCK = 128;
const FLAG_UTF16 = 1;
const FLAG_DEFLATED = 2;
/** format 3 */
const FLAG_BROTLI = 4;
/** the format whose blocks pack the docs of inline terms apart, and inline terms of 2+ docs */
const PACKED_INLINE_VERSION = 3;
/**
 * Terms held by at most this many docs are inline (format 3). Their docs cost the bit length of
 * the segment's doc count each; a blob's gaps cost less from about 16 docs on.
 */
export const INLINE_MAX_DOCS = 8;

export interface SparseIndex {
  numTerms: number;
  firstTerms: string[];
  /** absolute file offsets and byte lengths of the blocks */
  offsets: Float64Array;
  lengths: Uint32Array;
  crcs: Uint32Array;
}

/** Collects the terms of one field in order and builds its blocks and sparse index. */
export class TermDictWriter {
  readonly blocks = new ByteWriter(4096);
  private readonly firstTerms: string[] = [];
  private readonly lengths: number[] = [];
  private readonly crcs: number[] = [];
  private numTerms = 0;
  private pending: string[] = [];
  /** the entries of the pending terms after their term bytes */
  private readonly entries: Uint8Array[] = [];
  private readonly entry = new ByteWriter(64);
  private readonly body = new ByteWriter(4096);
  private blobBase = -1;
  /** docs of the pending block's inline terms, in term order */
  private inlineDocs: number[] = [];

  constructor(
    private readonly hasPositions: boolean,
    /** postings come from the ordinal column: entries hold the docFreq only */
    private readonly derived = false,
    /** Brotli quality of the blocks */
    private readonly quality = DEFAULT_BROTLI_QUALITY,
  ) {}

  /** Terms added so far: the rank the next term gets. */
  get count(): number {
    return this.numTerms;
  }

  /** Adds the next term (ascending) of a field whose postings are derived from its ordinals. */
  addDerived(term: string, docFreq: number): void {
    const e = this.entry;
    e.clear();
    e.varint(docFreq);
    this.push(term);
  }

  /** Adds the next term (ascending) held by more than INLINE_MAX_DOCS docs; its blob was written at `blobOffset`. */
  add(term: string, docFreq: number, blobOffset: number, docsLen: number, docsMode: number, posLen: number, posMode: number): void {
    if (this.derived) throw new Error('derived postings take no blob');
    if (docFreq <= INLINE_MAX_DOCS) throw new Error(`a term of ${docFreq} docs is inline`);
    if (this.blobBase < 0) this.blobBase = blobOffset;
    const e = this.entry;
    e.clear();
    e.varint(docFreq);
    e.varint(docsLen * 2 + docsMode);
    if (this.hasPositions) e.varint(posLen * 2 + posMode);
    this.push(term);
  }

  /** Adds the next term (ascending) held by the one doc `doc`, at `positions` (text fields). */
  addSingle(term: string, doc: number, positions: Uint32Array | null): void {
    this.addInline(term, Uint32Array.of(doc), positions && { offsets: Uint32Array.of(0, positions.length), positions });
  }

  /**
   * Adds the next term (ascending) held by the docs `docs` (1 to INLINE_MAX_DOCS, ascending); for
   * text fields doc k's positions are positions[offsets[k], offsets[k + 1]).
   */
  addInline(term: string, docs: Uint32Array, postings: { offsets: Uint32Array; positions: Uint32Array } | null): void {
    if (docs.length === 0 || docs.length > INLINE_MAX_DOCS) throw new Error(`${docs.length} docs cannot be inline`);
    const e = this.entry;
    e.clear();
    e.varint(docs.length);
    for (let k = 0; k < docs.length; k++) {
      if (k > 0 && docs[k]! <= docs[k - 1]!) throw new Error('doc ids not strictly increasing');
      this.inlineDocs.push(docs[k]!);
    }
    if (this.hasPositions) {
      const { offsets, positions } = postings!;
      for (let k = 0; k < docs.length; k++) {
        e.varint(offsets[k + 1]! - offsets[k]!);
        let prev = 0;
        for (let j = offsets[k]!; j < offsets[k + 1]!; j++) {
          if (positions[j]! < prev) throw new Error('positions not ascending');
          e.varint(positions[j]! - prev);
          prev = positions[j]!;
        }
      }
    }
    this.push(term);
  }

  private push(term: string): void {
    this.pending.push(term);
    this.entries.push(this.entry.toBytes());
    this.numTerms++;
    if (this.pending.length === TERMS_PER_BLOCK) this.flushBlock();
  }

  private flushBlock(): void {
    const terms = this.pending;
    if (terms.length === 0) return;
    const enc: StringEncoding = terms.every(isWellFormed) ? UTF8 : UTF16;
    const b = this.body;
    b.clear();
    b.varint(terms.length);
    // a block of single-doc terms has no blob: its base is never used
    b.varint(Math.max(0, this.blobBase));
    let prev: Buffer = Buffer.alloc(0);
    for (let i = 0; i < terms.length; i++) {
      const cur = encodeString(terms[i]!, enc);
      const max = Math.min(prev.length, cur.length);
      let shared = 0;
      while (shared < max && prev[shared] === cur[shared]) shared++;
      b.varint(shared);
      const suffix = cur.subarray(shared);
      if (enc === UTF8 && isHexText(suffix)) {
        b.varint(suffix.length * 2 + 1);
        packHex(b, suffix);
      } else {
        b.varint(suffix.length * 2);
        b.bytes(suffix);
      }
      b.bytes(this.entries[i]!);
      prev = cur;
    }
    if (this.inlineDocs.length > 0) packDocs(b, this.inlineDocs);
    const w = this.blocks;
    const start = w.length;
    const params = { ...BROTLI_PARAMS, [zlib.constants.BROTLI_PARAM_QUALITY]: this.quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length };
    const compressed = zlib.brotliCompressSync(b.view8(), { params });
    if (compressed.length < b.length) {
      w.u8((enc === UTF16 ? FLAG_UTF16 : 0) | FLAG_BROTLI);
      w.bytes(compressed);
    } else {
      w.u8(enc === UTF16 ? FLAG_UTF16 : 0);
      w.bytes(b.view8());
    }
    this.firstTerms.push(terms[0]!);
    this.lengths.push(w.length - start);
    this.crcs.push(checksum(w.raw().subarray(start, w.length)));
    this.pending = [];
    this.entries.length = 0;
    this.inlineDocs = [];
    this.blobBase = -1;
  }

  /** Ends the dictionary; `blocksStart` is the file offset the block bytes will be written at. */
  finish(blocksStart: number): SparseIndex {
    this.flushBlock();
    const n = this.firstTerms.length;
    const offsets = new Float64Array(n);
    let at = blocksStart;
    for (let i = 0; i < n; i++) {
      offsets[i] = at;
      at += this.lengths[i]!;
    }
    return {
      numTerms: this.numTerms,
      firstTerms: this.firstTerms,
      offsets,
      lengths: Uint32Array.from(this.lengths),
      crcs: Uint32Array.from(this.crcs),
    };
  }
}

/** One decoded block: per term its text, docFreq and where its postings are. */
export interface TermBlock {
  terms: string[];
  docFreq: Uint32Array;
  /** file offset of the term's blob (terms held by 2+ docs) */
  blobOffset: Float64Array;
  docsLen: Uint32Array;
  /** DOCS_PACKED or DOCS_REF (postings-codec.ts) */
  docsMode: Uint8Array;
  posLen: Uint32Array;
  posMode: Uint8Array;
  /** docs of inline terms: inlineDocs[inlineStart[i], inlineStart[i + 1]), empty for the others */
  inlineStart: Uint32Array;
  inlineDocs: Uint32Array;
  /** text fields: positions of inline doc k, inlinePositions[inlineOffsets[k], inlineOffsets[k + 1]) */
  inlineOffsets: Uint32Array;
  inlinePositions: Uint32Array;
}

/** The docs of an inline term (a new array), or null when the term has a blob or derived postings. */
export function inlineDocsOf(block: TermBlock, i: number): Uint32Array | null {
  const a = block.inlineStart[i]!;
  const b = block.inlineStart[i + 1]!;
  return a === b ? null : block.inlineDocs.slice(a, b);
}

/** The docs and positions of an inline term of a text field (new arrays), or null. */
export function inlinePostingsOf(block: TermBlock, i: number): PositionPostings | null {
  const a = block.inlineStart[i]!;
  const b = block.inlineStart[i + 1]!;
  if (a === b) return null;
  const from = block.inlineOffsets[a]!;
  const offsets = block.inlineOffsets.slice(a, b + 1);
  for (let k = 0; k < offsets.length; k++) offsets[k]! -= from;
  return { docs: block.inlineDocs.slice(a, b), offsets, positions: block.inlinePositions.slice(from, block.inlineOffsets[b]!) };
}

let termScratch = new Uint8Array(1024);

export function decodeTermBlock(stored: Uint8Array, hasPositions: boolean, derived: boolean, version: number): TermBlock {
  if (stored.length < 1) throw new FormatError('empty term block');
  const flags = stored[0]!;
  const enc = flags & FLAG_UTF16 ? UTF16 : UTF8;
  let bytes: Uint8Array = stored.subarray(1);
  if (flags & (FLAG_DEFLATED | FLAG_BROTLI)) {
    try {
      bytes = flags & FLAG_BROTLI ? zlib.brotliDecompressSync(bytes) : zlib.inflateRawSync(bytes);
    } catch {
      throw new FormatError('term block does not decompress');
    }
  }
  const packedInline = version >= PACKED_INLINE_VERSION;
  const maxInline = packedInline ? INLINE_MAX_DOCS : 1;
  const r = new ByteReader(bytes);
  const count = r.varint();
  if (count > TERMS_PER_BLOCK || count === 0) throw new FormatError('bad term block size');
  let blob = r.varint();
  const block: TermBlock = {
    terms: new Array<string>(count),
    docFreq: new Uint32Array(count),
    blobOffset: new Float64Array(count),
    docsLen: new Uint32Array(count),
    docsMode: new Uint8Array(count),
    posLen: new Uint32Array(count),
    posMode: new Uint8Array(count),
    inlineStart: new Uint32Array(count + 1),
    inlineDocs: new Uint32Array(0),
    inlineOffsets: new Uint32Array(0),
    inlinePositions: new Uint32Array(0),
  };
  let inlineCount = 0;
  /** formats 1 and 2: the docs of single-doc terms, varints in the entries */
  const varintDocs: number[] = [];
  const inlineOffsets: number[] = [0];
  const inlinePositions: number[] = [];
  let prevLen = 0;
  for (let i = 0; i < count; i++) {
    const shared = r.varint();
    const suffixCode = r.varint();
    const suffix = Math.floor(suffixCode / 2);
    if (shared > prevLen) throw new FormatError('bad term prefix');
    const len = shared + suffix;
    if (len > termScratch.length) {
      const next = new Uint8Array(Math.max(len, termScratch.length * 2));
      next.set(termScratch.subarray(0, prevLen));
      termScratch = next;
    }
    if (suffixCode % 2 === 1) unpackHex(r.bytesView((suffix + 1) >>> 1), termScratch, shared, suffix);
    else termScratch.set(r.bytesView(suffix), shared);
    block.terms[i] = decodeString(termScratch, 0, len, enc);
    prevLen = len;
    const docFreq = r.varint();
    block.docFreq[i] = docFreq;
    block.blobOffset[i] = blob;
    if (docFreq === 0) throw new FormatError('term without docs');
    if (derived) {
      // postings come from the ordinal column
    } else if (docFreq <= maxInline) {
      if (!packedInline) varintDocs.push(r.varint());
      inlineCount += docFreq;
      if (hasPositions) {
        for (let k = 0; k < docFreq; k++) {
          const freq = r.varint();
          // each position takes a byte at least: a damaged count must not run on
          if (freq > r.remaining) throw new FormatError('bad position count');
          let pos = 0;
          for (let j = 0; j < freq; j++) {
            pos += r.varint();
            inlinePositions.push(pos);
          }
          inlineOffsets.push(inlinePositions.length);
        }
      }
    } else {
      const docsCode = r.varint();
      // format 1 stored the length alone (packed docs)
      const docsLen = version === 1 ? docsCode : Math.floor(docsCode / 2);
      block.docsMode[i] = version === 1 ? 0 : docsCode % 2;
      let posLen = 0;
      if (hasPositions) {
        const v = r.varint();
        posLen = Math.floor(v / 2);
        block.posMode[i] = v % 2;
      }
      block.docsLen[i] = docsLen;
      block.posLen[i] = posLen;
      blob += docsLen + posLen;
    }
    block.inlineStart[i + 1] = inlineCount;
  }
  block.inlineDocs = packedInline ? (inlineCount > 0 ? unpackDocs(r, inlineCount) : new Uint32Array(0)) : Uint32Array.from(varintDocs);
  if (packedInline && r.remaining !== 0) throw new FormatError('trailing bytes in term block');
  for (let i = 0; i < count; i++) {
    for (let k = block.inlineStart[i]! + 1; k < block.inlineStart[i + 1]!; k++) {
      if (block.inlineDocs[k]! <= block.inlineDocs[k - 1]!) throw new FormatError('inline docs not increasing');
    }
  }
  block.inlineOffsets = Uint32Array.from(inlineOffsets);
  block.inlinePositions = Uint32Array.from(inlinePositions);
  return block;
}

/** quality 5: the blocks are small, higher qualities gain under 1 % */
const DEFAULT_BROTLI_QUALITY = 5;
const BROTLI_PARAMS = { [zlib.constants.BROTLI_PARAM_LGWIN]: 16 };

/** Appends u8 width · the docs as width-bit values. */
function packDocs(out: ByteWriter, docs: readonly number[]): void {
  let max = 0;
  for (const d of docs) if (d > max) max = d;
  const width = 32 - Math.clz32(max);
  out.u8(width);
  let acc = 0;
  let bits = 0;
  for (const d of docs) {
    // arithmetic, not shifts: up to 7 pending bits and 31 new ones exceed 32 bits
    acc += d * 2 ** bits;
    bits += width;
    while (bits >= 8) {
      out.u8(acc % 256);
      acc = Math.floor(acc / 256);
      bits -= 8;
    }
  }
  if (bits > 0) out.u8(acc);
}

/** Reads u8 width · `n` width-bit docs. */
function unpackDocs(r: ByteReader, n: number): Uint32Array {
  const width = r.u8();
  if (width > 31) throw new FormatError('bad inline doc width');
  const packed = r.bytesView(Math.ceil((n * width) / 8));
  const docs = new Uint32Array(n);
  const limit = 2 ** width;
  for (let k = 0, bit = 0; k < n; k++, bit += width) {
    // the value's bits lie in the 5 bytes from bit / 8 (7 bits of offset plus up to 31)
    const at = bit >>> 3;
    const lo = (packed[at]! | ((packed[at + 1] ?? 0) << 8) | ((packed[at + 2] ?? 0) << 16) | ((packed[at + 3] ?? 0) << 24)) >>> 0;
    const window = lo + (packed[at + 4] ?? 0) * 2 ** 32;
    docs[k] = Math.floor(window / (1 << (bit & 7))) % limit;
  }
  return docs;
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const HEX_VALUE = new Int8Array(256).fill(-1);
HEX_DIGITS.forEach((c, i) => (HEX_VALUE[c] = i));

/** Only lowercase hex digits (numbers, ids, hashes: most of a log's one-off tokens). */
function isHexText(bytes: Uint8Array): boolean {
  if (bytes.length < 2) return false;
  for (let i = 0; i < bytes.length; i++) if (HEX_VALUE[bytes[i]!]! < 0) return false;
  return true;
}

/** Two hex digits per byte, the first in the low nibble. */
function packHex(out: ByteWriter, bytes: Uint8Array): void {
  for (let i = 0; i < bytes.length; i += 2) {
    const lo = HEX_VALUE[bytes[i]!]!;
    const hi = i + 1 < bytes.length ? HEX_VALUE[bytes[i + 1]!]! : 0;
    out.u8(lo | (hi << 4));
  }
}

function unpackHex(packed: Uint8Array, out: Uint8Array, at: number, n: number): void {
  for (let i = 0; i < n; i++) {
    const b = packed[i >>> 1]!;
    out[at + i] = HEX_DIGITS[i & 1 ? b >>> 4 : b & 15]!;
  }
}

/** Index of the block that would hold `term`: the last whose first term is <= term, or -1. */
export function findBlock(index: SparseIndex, term: string): number {
  const first = index.firstTerms;
  let lo = 0;
  let hi = first.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (first[mid]! <= term) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** Index of the first term >= `term` within a block (terms.length when none). */
export function lowerBound(terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid]! < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
