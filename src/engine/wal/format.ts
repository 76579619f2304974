/**
 * Bytes of a WAL file: a 16-byte header (magic, version, file seq) and then records framed as
 * [u32 payload length][u32 crc32 of payload][payload], all little endian.
 */
import { crc32 } from '../../common/crc32.js';

export const WAL_MAGIC = 0x4c415753; // "SWAL" read as little endian
export const WAL_VERSION = 1;
export const HEADER_BYTES = 16;
export const FRAME_HEADER_BYTES = 8;
/** A frame claiming more than this is garbage, not a record (bounds the recovery scan). */
export const MAX_RECORD_BYTES = 0x7fffffff;

const FILE_NAME = /^wal-(\d{16})\.log$/;

export function walFileName(seq: number): string {
  return `wal-${String(seq).padStart(16, '0')}.log`;
}

/** The seq of a WAL file name, or undefined for any other file. */
export function parseWalFileName(name: string): number | undefined {
  const m = FILE_NAME.exec(name);
  return m ? Number(m[1]) : undefined;
}

export function encodeHeader(seq: number): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(WAL_MAGIC, 0);
  header.writeUInt32LE(WAL_VERSION, 4);
  header.writeBigUInt64LE(BigInt(seq), 8);
  return header;
}

/**
 * Frames the payloads of one append: a frame header before each payload, which is written as it
 * is, not copied (a payload must not change until its append settles).
 */
export function frameRecords(payloads: readonly Buffer[]): { buffers: Buffer[]; length: number } {
  const headers = Buffer.allocUnsafe(FRAME_HEADER_BYTES * payloads.length);
  const buffers: Buffer[] = [];
  let length = 0;
  for (let i = 0; i < payloads.length; i++) {
    const p = payloads[i]!;
    const header = headers.subarray(i * FRAME_HEADER_BYTES, (i + 1) * FRAME_HEADER_BYTES);
    header.writeUInt32LE(p.length, 0);
    header.writeUInt32LE(crc32(p), 4);
    buffers.push(header, p);
    length += FRAME_HEADER_BYTES + p.length;
  }
  return { buffers, length };
}
