/**
 * The payload of a write-ahead log record: the documents, or the deletes, of one bulk request
 * for one index. Layout (little endian): u8 kind, u16 index name length, index name (UTF-8),
 * [kinds 2 and 3: u8 index uuid length, index uuid], u32 entry count, then per entry:
 *
 * - kind 1 (documents, before index uuids were logged) and kind 2 (documents): u64 `_id`,
 *   f64 `_ts`, f64 `_lid`, u32 source length, source (UTF-8 JSON text). Replay indexes each
 *   document again from its stored source;
 * - kind 3 (deletes): f64 `_lid` of the deleted document, u64 its `_id`.
 *
 * The uuid tells a record of an index from one of an earlier index of the same name (kind 1
 * records tell it by the time their generated `_id` holds, which a client-supplied one has not).
 */
import { CorruptionError } from '../../common/index.js';

const KIND_DOCUMENTS_V1 = 1;
const KIND_DOCUMENTS = 2;
const KIND_DELETES = 3;

/** Bytes of one delete entry: `_lid`, `_id`. */
const DELETE_ENTRY_BYTES = 16;

/** Bytes of a document's fixed header in a record: `_id`, `_ts`, `_lid`, source length. */
export const WAL_DOC_HEADER_BYTES = 28;

/** Bytes of a record's header for an index name and uuid (UTF-8). */
export function walBatchHeaderBytes(name: Buffer, uuid: Buffer): number {
  return 1 + 2 + name.length + 1 + uuid.length + 4;
}

/** Writes a documents record's header; returns the offset of its first document. */
export function writeWalBatchHeader(buf: Buffer, name: Buffer, uuid: Buffer, count: number): number {
  return writeHeader(buf, KIND_DOCUMENTS, name, uuid, count);
}

function writeHeader(buf: Buffer, kind: number, name: Buffer, uuid: Buffer, count: number): number {
  let o = buf.writeUInt8(kind, 0);
  o = buf.writeUInt16LE(name.length, o);
  o += name.copy(buf, o);
  o = buf.writeUInt8(uuid.length, o);
  o += uuid.copy(buf, o);
  return buf.writeUInt32LE(count, o);
}

/** A deletes record: the `_lid` and `_id` of each document deleted (or replaced by a delete). */
export function walDeletesRecord(index: string, indexUuid: string, lids: readonly number[], ids: readonly bigint[]): Buffer {
  const name = Buffer.from(index, 'utf8');
  const uuid = Buffer.from(indexUuid, 'utf8');
  const buf = Buffer.allocUnsafe(walBatchHeaderBytes(name, uuid) + lids.length * DELETE_ENTRY_BYTES);
  let o = writeHeader(buf, KIND_DELETES, name, uuid, lids.length);
  for (let k = 0; k < lids.length; k++) {
    o = buf.writeDoubleLE(lids[k]!, o);
    o = buf.writeBigUInt64LE(ids[k]!, o);
  }
  return buf;
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
  /** the index's uuid; undefined in records written before uuids were logged */
  readonly indexUuid: string | undefined;
  /** true for a deletes record: each entry is a deleted document's `_id` and `_lid`, no source */
  readonly deletes: boolean;
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
      if (kind !== KIND_DOCUMENTS && kind !== KIND_DELETES && kind !== KIND_DOCUMENTS_V1) throw new Error(`unknown record kind ${kind}`);
      const nameLength = record.readUInt16LE(1);
      this.index = record.toString('utf8', 3, 3 + nameLength);
      let o = 3 + nameLength;
      if (kind !== KIND_DOCUMENTS_V1) {
        const uuidLength = record.readUInt8(o);
        this.indexUuid = record.toString('utf8', o + 1, o + 1 + uuidLength);
        o += 1 + uuidLength;
      }
      this.deletes = kind === KIND_DELETES;
      this.count = record.readUInt32LE(o);
      this.offset = o + 4;
    } catch (err) {
      throw this.corrupt(err);
    }
  }

  /** Moves to the next document; false after the last. */
  next(): boolean {
    if (this.read === this.count) return false;
    try {
      const o = this.offset;
      if (this.deletes) {
        this.lid = this.record.readDoubleLE(o);
        this.id = this.record.readBigUInt64LE(o + 8);
        this.sourceStart = this.sourceEnd = o + DELETE_ENTRY_BYTES;
        this.offset = this.sourceEnd;
        this.read++;
        return true;
      }
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
