/** CRC-32 of segment bytes (the shared implementation of src/common/crc32.ts). */
import { crc32 } from '../../common/crc32.js';

export function checksum(bytes: Uint8Array): number {
  return crc32(bytes);
}
