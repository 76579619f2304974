/**
 * The payload of a write-ahead log record: the documents of one bulk request for one index.
 * Layout (little endian): u8 kind (1 = documents), u16 index name length, index name (UTF-8),
 * u32 document count, then per document: u64 `_id`, f64 `_ts`, f64 `_lid`, u32 source length,
 * source (UTF-8 JSON text). Replay rebuilds each document from its stored source.
 */
import { CorruptionError } from '../../common/index.js';

const KIND_DOCUMENTS = 1;

export interface WalDocument {
  id: bigint;
  ts: number;
  lid: number;
  source: string;
}

export interface WalBatch {
  index: string;
  docs: WalDocument[];
}

/** Bytes of a document's fixed header in a record: `_id`, `_ts`, `_lid`, source length. */
export const WAL_DOC_HEADER_BYTES = 28;

/** Bytes of a record's header for an index name (UTF-8). */
export function walBatchHeaderBytes(name: Buffer): number {
  return 1 + 2 + name.length + 4;
}

/** Writes a record's header; returns the offset of its first document. */
export function writeWalBatchHeader(buf: Buffer, name: Buffer, count: number): number {
  let o = buf.writeUInt8(KIND_DOCUMENTS, 0);
  o = buf.writeUInt16LE(name.length, o);
  o += name.copy(buf, o);
  return buf.writeUInt32LE(count, o);
}

/** Writes a document's header at `o`; its source follows; returns the source's offset. */
export function writeWalDocHeader(buf: Buffer, o: number, id: bigint, ts: number, lid: number, sourceBytes: number): number {
  buf.writeBigUInt64LE(id, o);
  buf.writeDoubleLE(ts, o + 8);
  buf.writeDoubleLE(lid, o + 16);
  buf.writeUInt32LE(sourceBytes, o + 24);
  return o + WAL_DOC_HEADER_BYTES;
}

export function decodeWalBatch(buf: Buffer, where: string): WalBatch {
  try {
    let o = 0;
    const kind = buf.readUInt8(o);
    o += 1;
    if (kind !== KIND_DOCUMENTS) throw new Error(`unknown record kind ${kind}`);
    const nameLength = buf.readUInt16LE(o);
    o += 2;
    const index = buf.toString('utf8', o, o + nameLength);
    o += nameLength;
    const count = buf.readUInt32LE(o);
    o += 4;
    const docs: WalDocument[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const id = buf.readBigUInt64LE(o);
      const ts = buf.readDoubleLE(o + 8);
      const lid = buf.readDoubleLE(o + 16);
      const length = buf.readUInt32LE(o + 24);
      o += 28;
      if (o + length > buf.length) throw new Error('source runs past the record');
      docs[i] = { id, ts, lid, source: buf.toString('utf8', o, o + length) };
      o += length;
    }
    return { index, docs };
  } catch (err) {
    throw new CorruptionError(where, `bad write-ahead log record: ${(err as Error).message}`);
  }
}
