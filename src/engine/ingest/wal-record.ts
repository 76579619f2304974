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

export function encodeWalBatch(batch: WalBatch): Buffer {
  const name = Buffer.from(batch.index, 'utf8');
  let size = 1 + 2 + name.length + 4;
  const sources: Buffer[] = new Array(batch.docs.length);
  for (let i = 0; i < batch.docs.length; i++) {
    const src = Buffer.from(batch.docs[i]!.source, 'utf8');
    sources[i] = src;
    size += 8 + 8 + 8 + 4 + src.length;
  }
  const buf = Buffer.allocUnsafe(size);
  let o = 0;
  o = buf.writeUInt8(KIND_DOCUMENTS, o);
  o = buf.writeUInt16LE(name.length, o);
  o += name.copy(buf, o);
  o = buf.writeUInt32LE(batch.docs.length, o);
  for (let i = 0; i < batch.docs.length; i++) {
    const doc = batch.docs[i]!;
    o = buf.writeBigUInt64LE(doc.id, o);
    o = buf.writeDoubleLE(doc.ts, o);
    o = buf.writeDoubleLE(doc.lid, o);
    const src = sources[i]!;
    o = buf.writeUInt32LE(src.length, o);
    o += src.copy(buf, o);
  }
  return buf;
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
