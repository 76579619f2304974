/**
 * CRC-32 of segment bytes: the IEEE polynomial of src/common/crc32.ts, computed by zlib's native
 * implementation when Node has it (several times faster on doc blocks), else by the shared one.
 */
import zlib from 'node:zlib';
import { crc32 } from '../../common/crc32.js';

const native: ((data: Uint8Array) => number) | null = typeof zlib.crc32 === 'function' ? (d) => zlib.crc32(d) : null;

export function checksum(bytes: Uint8Array): number {
  return native !== null ? native(bytes) : crc32(bytes);
}
