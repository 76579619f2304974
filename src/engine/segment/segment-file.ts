/**
 * The segment reader: opens a segment file, checks its trailer and footer, and answers the
 * SegmentReader interface with positioned reads. In memory: the footer (field table, doc-store
 * block index, term-dictionary sparse indexes) for as long as it is open; decoded term blocks,
 * doc blocks, columns and postings in the thread's reader cache (reader-cache.ts: one budget for
 * the node, least recently used entries evicted first).
 */
import fs from 'node:fs';
import { CorruptionError } from '../../common/errors.js';
import type { FieldInfo, FieldType, OrdinalColumn, PointsIndex, PositionPostings, SegmentReader } from '../segment-reader.js';
import { FormatError } from './byte-reader.js';
import { checksum } from './checksum.js';
import { decodeIdColumn, decodeNumericColumn, decodeOrdinalColumn } from './column-codec.js';
import { applyOrdinalFunction } from './ordinal-function.js';
import { decodeDocBlock, type DocBlock, type SourceColumns } from './doc-store.js';
import {
  FLAG_DERIVED_POSTINGS,
  FLAG_POSITIONS,
  FLAG_PRESENCE_ALL,
  FLAG_PRESENCE_NUMERIC,
  FLAG_PRESENCE_ORDINALS,
  HEADER_BYTES,
  TRAILER_BYTES,
  decodeFooter,
  decodeTrailer,
  type BlobRef,
  type FieldEntry,
  type Footer,
} from './footer.js';
import { buildPointsIndex } from './points-index.js';
import { buildIdIndex, docOfId } from './id-index.js';
import { attachDocBits, docBitsBytes } from './doc-bits.js';
import { DOCS_REF, decodeDocIds, decodePositions, type BaseDocs } from './postings-codec.js';
import { TERMS_PER_BLOCK, decodeTermBlock, findBlock, inlineDocsOf, inlinePostingsOf, lowerBound, type TermBlock } from './term-dict.js';
import { segmentIdOf } from './segment-id.js';
import { currentReaderCache, stringsBytes } from './reader-cache.js';

/**
 * Decoded postings (doc ids, and positions for phrases) of recently queried terms are kept: a
 * warm query then only intersects, where decoding a common word's list costs several times more
 * than the intersection. Lists over POSTINGS_CACHE_ITEM_BYTES are decoded each time (they would
 * push out everything else).
 */
const POSTINGS_CACHE_ITEM_BYTES = 1 << 20;
const SCRATCH_MAX_BYTES = 1 << 20;
const EMPTY_DOCS = new Uint32Array(0);

// reads of up to SCRATCH_MAX_BYTES land here (the reader is synchronous, so one buffer serves all)
let scratch = new Uint8Array(64 << 10);

interface TermRef {
  entry: FieldEntry;
  b: number;
  block: TermBlock;
  i: number;
}

export class SegmentFile implements SegmentReader {
  readonly numDocs: number;
  readonly minTs: number;
  readonly maxTs: number;
  readonly maxLid: number;
  readonly sizeBytes: number;

  private fd: number;
  private readonly footer: Footer;
  private readonly fieldMap = new Map<string, FieldEntry>();
  private readonly fieldInfos: FieldInfo[];
  /** keyed by field index * 2^32 + block index */
  private readonly termBlocks = currentReaderCache().space<number, TermBlock>();
  private readonly docBlocks = currentReaderCache().space<number, DocBlock>();
  private readonly columns = currentReaderCache().space<string, unknown>();
  /** decoded postings of reference bases: a merge reads term after term, so recent bases stay */
  private readonly bases = currentReaderCache().space<string, Uint32Array>();
  /** keyed by field index * 2^32 + term rank; positions entries by the negated key minus one */
  private readonly decoded = currentReaderCache().space<number, Uint32Array | PositionPostings>();
  private readonly fieldIndex = new Map<string, number>();

  private constructor(
    readonly filePath: string,
    readonly id: string,
    fd: number,
    sizeBytes: number,
    footer: Footer,
  ) {
    this.fd = fd;
    this.sizeBytes = sizeBytes;
    this.footer = footer;
    this.numDocs = footer.numDocs;
    this.minTs = footer.minTs;
    this.maxTs = footer.maxTs;
    this.maxLid = footer.maxLid;
    footer.fields.forEach((f, i) => {
      this.fieldMap.set(f.name, f);
      this.fieldIndex.set(f.name, i);
    });
    this.fieldInfos = footer.fields.map((f) => ({ name: f.name, type: f.type }));
  }

  static open(filePath: string, id = segmentIdOf(filePath)): SegmentFile {
    const fd = fs.openSync(filePath, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      if (size < HEADER_BYTES + TRAILER_BYTES) throw new CorruptionError(filePath, `file too short (${size} bytes)`);
      const footer = guard(filePath, () => {
        const trailer = decodeTrailer(readFully(fd, size - TRAILER_BYTES, TRAILER_BYTES, false));
        const start = size - TRAILER_BYTES - trailer.footerLength;
        if (start < HEADER_BYTES) throw new FormatError('footer length out of range');
        const bytes = readFully(fd, start, trailer.footerLength, false);
        if (checksum(bytes) !== trailer.footerCrc) throw new FormatError('footer checksum mismatch');
        return decodeFooter(bytes, size, trailer.version);
      });
      return new SegmentFile(filePath, id, fd, size, footer);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  close(): void {
    if (this.fd < 0) return;
    fs.closeSync(this.fd);
    this.fd = -1;
    this.termBlocks.clear();
    this.docBlocks.clear();
    this.columns.clear();
    this.bases.clear();
    this.decoded.clear();
  }

  fields(): readonly FieldInfo[] {
    return this.fieldInfos;
  }

  fieldType(field: string): FieldType | undefined {
    return this.fieldMap.get(field)?.type;
  }

  *terms(field: string, from?: string): Iterable<string> {
    const entry = this.fieldMap.get(field);
    const index = entry?.terms;
    if (!entry || !index || index.firstTerms.length === 0) return;
    let b = from === undefined ? 0 : Math.max(0, findBlock(index, from));
    let i = from === undefined ? 0 : lowerBound(this.termBlock(entry, b).terms, from);
    for (; b < index.firstTerms.length; b++, i = 0) {
      const terms = this.termBlock(entry, b).terms;
      for (; i < terms.length; i++) yield terms[i]!;
    }
  }

  docFreq(field: string, term: string): number {
    const ref = this.lookup(field, term);
    return ref === null ? 0 : ref.block.docFreq[ref.i]!;
  }

  postings(field: string, term: string): Uint32Array | null {
    const ref = this.lookup(field, term);
    if (ref === null) return null;
    const { block, i } = ref;
    if (ref.entry.flags & FLAG_DERIVED_POSTINGS) return this.derivedPostings(ref);
    const inline = inlineDocsOf(block, i);
    if (inline !== null) return guard(this.filePath, () => (this.checkDoc(inline[inline.length - 1]!), inline));
    const key = this.termKey(ref);
    const hit = this.decoded.get(key);
    if (hit !== undefined) return hit as Uint32Array;
    const docs = guard(this.filePath, () => {
      const mode = block.docsMode[i]!;
      // a reference reads its base's blocks: its own bytes must not sit in the shared buffer
      const bytes = this.read(block.blobOffset[i]!, block.docsLen[i]!, mode !== DOCS_REF);
      return decodeDocIds(bytes, 0, block.docFreq[i]!, this.numDocs, mode, this.baseDocsOf(ref.entry));
    });
    this.keepDecoded(key, docs, this.withBits(docs, docs.byteLength));
    return docs;
  }

  /** Bytes of a decoded list with its bitset; the bitset is built when the list will be kept with it. */
  private withBits(docs: Uint32Array, bytes: number): number {
    const bits = docBitsBytes(docs, this.numDocs);
    if (bits === 0 || bytes + bits > POSTINGS_CACHE_ITEM_BYTES) return bytes;
    attachDocBits(docs, this.numDocs);
    return bytes + bits;
  }

  /** The key of a term's decoded docs in `decoded`; its positions use -key - 1. */
  private termKey(ref: TermRef): number {
    return this.fieldIndex.get(ref.entry.name)! * 2 ** 32 + ref.b * TERMS_PER_BLOCK + ref.i;
  }

  private keepDecoded(key: number, value: Uint32Array | PositionPostings, bytes: number): void {
    if (bytes <= POSTINGS_CACHE_ITEM_BYTES) this.decoded.set(key, value, bytes);
  }

  positions(field: string, term: string): PositionPostings | null {
    const entry = this.fieldMap.get(field);
    if (!entry || !(entry.flags & FLAG_POSITIONS)) return null;
    const ref = this.lookup(field, term);
    if (ref === null) return null;
    const { block, i } = ref;
    const inline = inlinePostingsOf(block, i);
    if (inline !== null) return guard(this.filePath, () => (this.checkDoc(inline.docs[inline.docs.length - 1]!), inline));
    const key = -this.termKey(ref) - 1;
    const hit = this.decoded.get(key);
    if (hit !== undefined) return hit as PositionPostings;
    const decoded = guard(this.filePath, () => {
      const docsLen = block.docsLen[i]!;
      const end = docsLen + block.posLen[i]!;
      const mode = block.docsMode[i]!;
      const bytes = this.read(block.blobOffset[i]!, end, mode !== DOCS_REF);
      const docs = decodeDocIds(bytes.subarray(0, docsLen), 0, block.docFreq[i]!, this.numDocs, mode, this.baseDocsOf(ref.entry));
      const { offsets, positions } = decodePositions(bytes, docsLen, end, docs.length, block.posMode[i]!);
      return { docs, offsets, positions };
    });
    this.keepDecoded(key, decoded, this.withBits(decoded.docs, decoded.docs.byteLength + decoded.offsets.byteLength + decoded.positions.byteLength));
    return decoded;
  }

  /** The plain-coded docs of the term of a rank: what reference-coded docs are relative to. */
  private baseDocsOf(entry: FieldEntry): BaseDocs {
    return (rank) => {
      const key = `${entry.name}\u0000${rank}`;
      const hit = this.bases.get(key);
      if (hit !== undefined) return hit;
      const index = entry.terms!;
      if (rank >= index.numTerms) throw new FormatError(`reference to term ${rank} of ${entry.name} out of range`);
      const block = this.termBlock(entry, Math.floor(rank / TERMS_PER_BLOCK));
      const i = rank % TERMS_PER_BLOCK;
      if (i >= block.terms.length || block.inlineStart[i + 1]! > block.inlineStart[i]! || block.docsMode[i] === DOCS_REF) {
        throw new FormatError(`reference to term ${rank} of ${entry.name} that is no base`);
      }
      const bytes = this.read(block.blobOffset[i]!, block.docsLen[i]!);
      const docs = decodeDocIds(bytes, 0, block.docFreq[i]!, this.numDocs, block.docsMode[i]!);
      this.bases.set(key, docs, docs.byteLength);
      return docs;
    };
  }

  /** The docs whose ordinal is the term's rank in the dictionary. */
  private derivedPostings(ref: TermRef): Uint32Array {
    const field = ref.entry.name;
    const numTerms = ref.entry.terms!.numTerms;
    // one pass over the ordinals buckets the docs of every term; lookups then take a slice
    const all = this.cached(
      `p:${field}`,
      () => {
        const ords = this.ordinals(field)?.ords ?? new Int32Array(0);
        const starts = new Uint32Array(numTerms + 1);
        for (let d = 0; d < ords.length; d++) {
          const o = ords[d]!;
          if (o >= numTerms) throw new CorruptionError(this.filePath, `ordinal of ${field} out of range`);
          if (o >= 0) starts[o + 1]!++;
        }
        for (let t = 0; t < numTerms; t++) starts[t + 1]! += starts[t]!;
        const docs = new Uint32Array(starts[numTerms]!);
        const next = starts.slice(0, numTerms);
        for (let d = 0; d < ords.length; d++) {
          const o = ords[d]!;
          if (o >= 0) docs[next[o]!++] = d;
        }
        return { starts, docs };
      },
      (v) => v.starts.byteLength + v.docs.byteLength,
    );
    const rank = ref.b * TERMS_PER_BLOCK + ref.i;
    const docs = all.docs.subarray(all.starts[rank], all.starts[rank + 1]);
    if (docs.length !== ref.block.docFreq[ref.i]) throw new CorruptionError(this.filePath, `postings of a term of ${field} do not match its ordinals`);
    return docs;
  }

  private checkDoc(doc: number): number {
    if (doc >= this.numDocs) throw new FormatError(`doc id ${doc} out of range`);
    return doc;
  }

  numeric(field: string): Float64Array | null {
    if (field === '_ts') return this.cached('ts', () => this.decodeBlob(this.footer.ts, (b) => decodeNumericColumn(b, this.numDocs)), byteLength);
    if (field === '_lid') return this.cached('lid', () => this.decodeBlob(this.footer.lid, (b) => decodeNumericColumn(b, this.numDocs)), byteLength);
    const ref = this.fieldMap.get(field)?.numeric;
    if (!ref) return null;
    return this.cached(`n:${field}`, () => this.decodeBlob(ref, (b) => decodeNumericColumn(b, this.numDocs)), byteLength);
  }

  pointsIndex(field: string): PointsIndex | null {
    const column = this.numeric(field);
    if (column === null) return null;
    return this.cached(`x:${field}`, () => buildPointsIndex(column), (x) => x.values.byteLength + x.docs.byteLength);
  }

  ordinals(field: string): OrdinalColumn | null {
    const entry = this.fieldMap.get(field);
    const ref = entry?.ordinals;
    if (!entry || !ref) return null;
    return this.cached(
      `o:${field}`,
      (): OrdinalColumn => {
        const decoded = this.decodeBlob(ref, (b) => decodeOrdinalColumn(b, this.numDocs));
        const fn = decoded.fn;
        // after the blob's decoding: the source's read reuses the read buffer
        if (fn !== null) decoded.ords = guard(this.filePath, () => applyOrdinalFunction(fn, fn.source === field ? null : this.ordinals(fn.source), this.numDocs));
        const terms = decoded.terms ?? Array.from(this.terms(field));
        if (terms.length !== decoded.numTerms) throw new CorruptionError(this.filePath, `ordinal terms of ${field} do not match`);
        return { ords: decoded.ords, terms };
      },
      (c) => c.ords.byteLength + stringsBytes(c.terms),
    );
  }

  exists(field: string): Uint32Array {
    const entry = this.fieldMap.get(field);
    if (!entry || entry.presenceCount === 0) return EMPTY_DOCS;
    return this.cached(`e:${field}`, () => {
      const n = this.numDocs;
      let docs: Uint32Array;
      if (entry.flags & FLAG_PRESENCE_ALL) {
        docs = new Uint32Array(n);
        for (let i = 0; i < n; i++) docs[i] = i;
      } else if (entry.flags & (FLAG_PRESENCE_NUMERIC | FLAG_PRESENCE_ORDINALS)) {
        docs = new Uint32Array(entry.presenceCount);
        let k = 0;
        if (entry.flags & FLAG_PRESENCE_NUMERIC) {
          const col = this.numeric(field);
          for (let d = 0; col && d < n && k < docs.length; d++) if (col[d] === col[d]) docs[k++] = d;
        } else {
          const ords = this.ordinals(field)?.ords;
          for (let d = 0; ords && d < n && k < docs.length; d++) if (ords[d]! >= 0) docs[k++] = d;
        }
        if (k !== docs.length) throw new CorruptionError(this.filePath, `presence of ${field} does not match its column`);
      } else {
        docs = this.decodeBlob(entry.presence!, (b) => decodeDocIds(b, 0, entry.presenceCount, n));
      }
      return docs;
    }, byteLength);
  }

  ids(): BigUint64Array {
    return this.cached('ids', () => this.decodeBlob(this.footer.ids, (b) => decodeIdColumn(b, this.numDocs)), byteLength);
  }

  docOfGeneratedId(id: bigint): number {
    const index = this.cached('i:_id', () => buildIdIndex(this.ids()), (x) => x.ids.byteLength + x.docs.byteLength);
    return docOfId(index, id);
  }

  source(doc: number): string {
    if (!Number.isInteger(doc) || doc < 0 || doc >= this.numDocs) throw new RangeError(`doc ${doc} is not in segment ${this.id}`);
    const ds = this.footer.docStore;
    let lo = 0;
    let hi = ds.crcs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (ds.firstDocs[mid]! <= doc) lo = mid;
      else hi = mid - 1;
    }
    let block = this.docBlocks.get(lo);
    if (block === undefined) {
      const b = lo;
      block = guard(this.filePath, () => {
        const start = ds.offsets[b]!;
        const bytes = this.read(start, ds.offsets[b + 1]! - start);
        if (checksum(bytes) !== ds.crcs[b]) throw new FormatError(`doc block ${b} checksum mismatch`);
        return decodeDocBlock(bytes, ds.firstDocs[b + 1]! - ds.firstDocs[b]!, this.footer.version);
      });
      this.docBlocks.set(lo, block, block.byteSize);
    }
    const found = block;
    return guard(this.filePath, () => found.text(doc - ds.firstDocs[lo]!, doc, this.sourceColumns));
  }

  /** The columns a doc block takes left-out values from (loaded only when a source needs them). */
  private readonly sourceColumns: SourceColumns = {
    numeric: (field) => this.numeric(field),
    ordinals: (field) => this.ordinals(field),
  };

  /** A decoded column from the column LRU, loading it on a miss; `bytes` sizes it for the LRU. */
  private cached<T>(key: string, load: () => T, bytes: (value: T) => number): T {
    const hit = this.columns.get(key);
    if (hit !== undefined) return hit as T;
    const value = load();
    this.columns.set(key, value, bytes(value));
    return value;
  }

  private lookup(field: string, term: string): TermRef | null {
    const entry = this.fieldMap.get(field);
    const index = entry?.terms;
    if (!entry || !index) return null;
    const b = findBlock(index, term);
    if (b < 0) return null;
    const block = this.termBlock(entry, b);
    const i = lowerBound(block.terms, term);
    return i < block.terms.length && block.terms[i] === term ? { entry, b, block, i } : null;
  }

  private termBlock(entry: FieldEntry, b: number): TermBlock {
    const key = this.fieldIndex.get(entry.name)! * 2 ** 32 + b;
    const hit = this.termBlocks.get(key);
    if (hit !== undefined) return hit;
    const index = entry.terms!;
    const block = guard(this.filePath, () => {
      const bytes = this.read(index.offsets[b]!, index.lengths[b]!);
      if (checksum(bytes) !== index.crcs[b]) throw new FormatError(`term block ${b} of ${entry.name} checksum mismatch`);
      return decodeTermBlock(bytes, (entry.flags & FLAG_POSITIONS) !== 0, (entry.flags & FLAG_DERIVED_POSTINGS) !== 0, this.footer.version);
    });
    this.termBlocks.set(key, block, termBlockBytes(block));
    return block;
  }

  /** Reads a blob whole, checks its CRC and decodes it. */
  private decodeBlob<T>(ref: BlobRef, decode: (bytes: Uint8Array) => T): T {
    return guard(this.filePath, () => {
      const bytes = this.read(ref.offset, ref.length);
      if (checksum(bytes) !== ref.crc) throw new FormatError(`checksum mismatch at offset ${ref.offset}`);
      return decode(bytes);
    });
  }

  /**
   * Bytes [offset, offset + length), in a buffer whose first byte is 4-byte aligned: the shared
   * scratch buffer (valid until the next read) unless `shared` is false.
   */
  private read(offset: number, length: number, shared = true): Uint8Array {
    if (this.fd < 0) throw new Error(`segment ${this.id} is closed`);
    return readFully(this.fd, offset, length, shared);
  }
}

function byteLength(a: ArrayBufferView): number {
  return a.byteLength;
}

function termBlockBytes(b: TermBlock): number {
  return (
    stringsBytes(b.terms) +
    b.docFreq.byteLength +
    b.blobOffset.byteLength +
    b.docsLen.byteLength +
    b.docsMode.byteLength +
    b.posLen.byteLength +
    b.posMode.byteLength +
    b.inlineStart.byteLength +
    b.inlineDocs.byteLength +
    b.inlineOffsets.byteLength +
    b.inlinePositions.byteLength +
    // the block object and its eleven typed array objects
    11 * 64
  );
}

/** A positioned read of exactly `length` bytes; `shared` allows reuse of the scratch buffer. */
function readFully(fd: number, position: number, length: number, shared: boolean): Uint8Array {
  let buf: Uint8Array;
  if (shared && length <= SCRATCH_MAX_BYTES) {
    if (scratch.length < length) scratch = new Uint8Array(Math.min(SCRATCH_MAX_BYTES, Math.max(length, scratch.length * 2)));
    buf = scratch.subarray(0, length);
  } else {
    buf = new Uint8Array(length);
  }
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, buf, done, length - done, position + done);
    if (n === 0) throw new FormatError(`unexpected end of file at ${position + done}`);
    done += n;
  }
  return buf;
}

/** Runs a decode step, reporting malformed bytes as a CorruptionError naming the file. */
function guard<T>(filePath: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof FormatError) throw new CorruptionError(filePath, err.message);
    throw err;
  }
}
