/**
 * The payload of a write-ahead log record: the documents of one bulk request for one index.
 * Layout (little endian): u8 kind (1 = documents), u16 index name length, index name (UTF-8),
 * u32 document count, then per document: u64 `_id`, f64 `_ts`, f64 `_lid`, u32 source length,
 * source (UTF-8 JSON text). Replay indexes each document again from its stored source.
 */
import { CorruptionError } from '../../common/index.js';

const KIND_DOCUMENTS = 1;

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

/**
 * Reads a record in place: its index, then one document header at a time, without copying the
 * sources (they are byte ranges of the record). Malformed bytes throw CorruptionError.
 */
export class WalRecordReader {
  readonly index: string;
  readonly count: number;
  id = 0n;
  ts = 0;
  lid = 0;
  /** the current document's source is bytes [sourceStart, sourceEnd) of the record */
  sourceStart = 0;
  sourceEnd = 0;
  private offset: number;
  private read = 0;

  constructor(
    readonly record: Buffer,
    private readonly where: string,
  ) {
    try {
      const kind = record.readUInt8(0);
      if (kind !== KIND_DOCUMENTS) throw new Error(`unknown record kind ${kind}`);
      const nameLength = record.readUInt16LE(1);
      this.index = record.toString('utf8', 3, 3 + nameLength);
      this.count = record.readUInt32LE(3 + nameLength);
      this.offset = 7 + nameLength;
    } catch (err) {
      throw this.corrupt(err);
    }
  }

  /** Moves to the next document; false after the last. */
  next(): boolean {
    if (this.read === this.count) return false;
    try {
      const o = this.offset;
      this.id = this.record.readBigUInt64LE(o);
      this.ts = this.record.readDoubleLE(o + 8);
      this.lid = this.record.readDoubleLE(o + 16);
      const length = this.record.readUInt32LE(o + 24);
      this.sourceStart = o + WAL_DOC_HEADER_BYTES;
      this.sourceEnd = this.sourceStart + length;
      if (this.sourceEnd > this.record.length) throw new Error('source runs past the record');
    } catch (err) {
      throw this.corrupt(err);
    }
    this.offset = this.sourceEnd;
    this.read++;
    return true;
  }

  /** The current document's source as text. */
  source(): string {
    return this.record.toString('utf8', this.sourceStart, this.sourceEnd);
  }

  private corrupt(err: unknown): CorruptionError {
    return new CorruptionError(this.where, `bad write-ahead log record: ${(err as Error).message}`);
  }
}
