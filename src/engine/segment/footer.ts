/**
 * The footer: everything a reader needs to find the rest of the file, checked by CRC-32. The file
 * ends with a fixed 16-byte trailer: u32 footer length · u32 CRC-32 of the footer · u32 format
 * version · "SVSG". See index.ts for the footer's fields.
 */
import type { FieldType } from '../segment-reader.js';
import { ByteReader, FormatError } from './byte-reader.js';
import { ByteWriter } from './byte-writer.js';
import { checksum } from './checksum.js';
import { decodeString, encodeString, encodingFor } from './strings.js';
import type { SparseIndex } from './term-dict.js';

export const MAGIC = Buffer.from('SVSG', 'latin1');
export const FORMAT_VERSION = 4;
/**
 * versions this reader opens: 1 has text doc-store blocks only, 2 and 3 column blocks only (4
 * marks each block's layout), 2 has no plane streams or packed term blocks
 */
export const READABLE_VERSIONS: readonly number[] = [1, 2, 3, 4];
export const HEADER_BYTES = 8;
export const TRAILER_BYTES = 16;

const TYPE_CODES: readonly FieldType[] = ['text', 'keyword', 'long', 'double', 'boolean', 'date'];

export const FLAG_TERMS = 1;
export const FLAG_POSITIONS = 2;
export const FLAG_NUMERIC = 4;
export const FLAG_ORDINALS = 8;
export const FLAG_PRESENCE_ALL = 16;
export const FLAG_DERIVED_POSTINGS = 32;
/** the docs holding the field are those with a value in its numeric column */
export const FLAG_PRESENCE_NUMERIC = 64;
/** the docs holding the field are those with an ordinal */
export const FLAG_PRESENCE_ORDINALS = 128;
const PRESENCE_IMPLIED = FLAG_PRESENCE_ALL | FLAG_PRESENCE_NUMERIC | FLAG_PRESENCE_ORDINALS;

/** Where a blob lies, with the CRC-32 of its bytes. */
export interface BlobRef {
  offset: number;
  length: number;
  crc: number;
}

export interface FieldEntry {
  name: string;
  type: FieldType;
  flags: number;
  /** docs holding the field; the blob is a docs stream of this many ids unless a flag implies them */
  presenceCount: number;
  presence: BlobRef | null;
  numeric: BlobRef | null;
  ordinals: BlobRef | null;
  terms: SparseIndex | null;
}

export interface DocStoreIndex {
  /** first doc of each block, then numDocs: length numBlocks + 1 */
  firstDocs: Uint32Array;
  /** file offset of each block, then the end of the last: length numBlocks + 1 */
  offsets: Float64Array;
  crcs: Uint32Array;
}

export interface Footer {
  /** the format version of the file (from its trailer) */
  version: number;
  numDocs: number;
  minTs: number;
  maxTs: number;
  maxLid: number;
  docStore: DocStoreIndex;
  ts: BlobRef;
  lid: BlobRef;
  ids: BlobRef;
  fields: FieldEntry[];
}

export function encodeHeader(): Uint8Array {
  const w = new ByteWriter(HEADER_BYTES);
  w.bytes(MAGIC);
  w.u32(FORMAT_VERSION);
  return w.toBytes();
}

function writeBlob(w: ByteWriter, b: BlobRef): void {
  w.varint(b.offset);
  w.varint(b.length);
  w.u32(b.crc);
}

function readBlob(r: ByteReader): BlobRef {
  return { offset: r.varint(), length: r.varint(), crc: r.u32() };
}

function writeName(w: ByteWriter, s: string): void {
  const enc = encodingFor(s);
  w.u8(enc);
  w.lenBytes(encodeString(s, enc));
}

function readName(r: ByteReader): string {
  const enc = r.u8();
  const len = r.varint();
  const start = r.pos;
  r.bytesView(len);
  return decodeString(r.bytes, start, start + len, enc);
}

/** The footer bytes followed by the trailer. */
export function encodeFooter(f: Footer): Uint8Array {
  const w = new ByteWriter(4096);
  w.varint(f.numDocs);
  w.f64(f.minTs);
  w.f64(f.maxTs);
  w.f64(f.maxLid);
  const ds = f.docStore;
  const nBlocks = ds.crcs.length;
  w.varint(nBlocks);
  w.varint(ds.offsets[0]!);
  for (let i = 0; i < nBlocks; i++) {
    w.varint(ds.firstDocs[i + 1]! - ds.firstDocs[i]!);
    w.varint(ds.offsets[i + 1]! - ds.offsets[i]!);
    w.u32(ds.crcs[i]!);
  }
  writeBlob(w, f.ts);
  writeBlob(w, f.lid);
  writeBlob(w, f.ids);
  w.varint(f.fields.length);
  for (const field of f.fields) {
    writeName(w, field.name);
    w.u8(TYPE_CODES.indexOf(field.type));
    w.u8(field.flags);
    w.varint(field.presenceCount);
    if (field.presence) writeBlob(w, field.presence);
    if (field.numeric) writeBlob(w, field.numeric);
    if (field.ordinals) writeBlob(w, field.ordinals);
    const t = field.terms;
    if (t) {
      w.varint(t.numTerms);
      const n = t.firstTerms.length;
      w.varint(n);
      if (n > 0) w.varint(t.offsets[0]!);
      for (let i = 0; i < n; i++) {
        writeName(w, t.firstTerms[i]!);
        w.varint(t.lengths[i]!);
        w.u32(t.crcs[i]!);
      }
    }
  }
  const bodyLen = w.length;
  const crc = checksum(w.view8());
  w.u32(bodyLen);
  w.u32(crc);
  w.u32(FORMAT_VERSION);
  w.bytes(MAGIC);
  return w.toBytes();
}

export interface Trailer {
  footerLength: number;
  footerCrc: number;
  version: number;
}

/** Checks the trailer's magic and version; throws FormatError naming what is wrong. */
export function decodeTrailer(bytes: Uint8Array): Trailer {
  const r = new ByteReader(bytes);
  const footerLength = r.u32();
  const footerCrc = r.u32();
  const version = r.u32();
  const magic = r.bytesView(4);
  if (Buffer.compare(Buffer.from(magic), MAGIC) !== 0) throw new FormatError('bad magic (not a segment file, or truncated)');
  if (!READABLE_VERSIONS.includes(version)) throw new FormatError(`unsupported format version ${version}`);
  return { footerLength, footerCrc, version };
}

/** Parses footer bytes whose CRC the caller has checked; `version` is the trailer's. */
export function decodeFooter(bytes: Uint8Array, fileSize: number, version = FORMAT_VERSION): Footer {
  const r = new ByteReader(bytes);
  const numDocs = r.varint();
  const minTs = r.f64();
  const maxTs = r.f64();
  const maxLid = r.f64();
  const nBlocks = r.varint();
  const firstDocs = new Uint32Array(nBlocks + 1);
  const offsets = new Float64Array(nBlocks + 1);
  const crcs = new Uint32Array(nBlocks);
  offsets[0] = r.varint();
  for (let i = 0; i < nBlocks; i++) {
    firstDocs[i + 1] = firstDocs[i]! + r.varint();
    offsets[i + 1] = offsets[i]! + r.varint();
    crcs[i] = r.u32();
  }
  if (firstDocs[nBlocks] !== numDocs) throw new FormatError('doc store block index does not cover all docs');
  const ts = readBlob(r);
  const lid = readBlob(r);
  const ids = readBlob(r);
  const nFields = r.varint();
  const fields: FieldEntry[] = [];
  for (let i = 0; i < nFields; i++) {
    const name = readName(r);
    const type = TYPE_CODES[r.u8()];
    if (!type) throw new FormatError(`bad type code for field ${name}`);
    const flags = r.u8();
    const presenceCount = r.varint();
    const presence = !(flags & PRESENCE_IMPLIED) && presenceCount > 0 ? readBlob(r) : null;
    const numeric = flags & FLAG_NUMERIC ? readBlob(r) : null;
    const ordinals = flags & FLAG_ORDINALS ? readBlob(r) : null;
    let terms: SparseIndex | null = null;
    if (flags & FLAG_TERMS) {
      const numTerms = r.varint();
      const n = r.varint();
      const firstTerms: string[] = new Array<string>(n);
      const toffsets = new Float64Array(n);
      const lengths = new Uint32Array(n);
      const tcrcs = new Uint32Array(n);
      let at = n > 0 ? r.varint() : 0;
      for (let b = 0; b < n; b++) {
        firstTerms[b] = readName(r);
        toffsets[b] = at;
        lengths[b] = r.varint();
        tcrcs[b] = r.u32();
        at += lengths[b]!;
      }
      terms = { numTerms, firstTerms, offsets: toffsets, lengths, crcs: tcrcs };
    }
    fields.push({ name, type, flags, presenceCount, presence, numeric, ordinals, terms });
  }
  if (r.remaining !== 0) throw new FormatError('trailing bytes in footer');
  const f: Footer = { version, numDocs, minTs, maxTs, maxLid, docStore: { firstDocs, offsets, crcs }, ts, lid, ids, fields };
  checkRanges(f, fileSize);
  return f;
}

/** Every referenced range must lie between the header and the footer. */
function checkRanges(f: Footer, fileSize: number): void {
  const limit = fileSize - TRAILER_BYTES;
  const within = (offset: number, length: number, what: string): void => {
    if (offset < HEADER_BYTES || offset + length > limit) throw new FormatError(`${what} out of file bounds`);
  };
  const ds = f.docStore;
  if (ds.crcs.length > 0) within(ds.offsets[0]!, ds.offsets[ds.crcs.length]! - ds.offsets[0]!, 'doc store');
  for (const b of [f.ts, f.lid, f.ids]) within(b.offset, b.length, 'column');
  for (const field of f.fields) {
    for (const b of [field.presence, field.numeric, field.ordinals]) if (b) within(b.offset, b.length, `field ${field.name}`);
    const t = field.terms;
    if (t && t.offsets.length > 0) {
      const n = t.offsets.length;
      within(t.offsets[0]!, t.offsets[n - 1]! + t.lengths[n - 1]! - t.offsets[0]!, `terms of ${field.name}`);
    }
  }
}
