/**
 * CRC-32 (IEEE 802.3, the zlib polynomial) over Buffers and byte ranges. Used by the write-ahead
 * log records and segment file footers to detect torn writes and corruption. zlib's native
 * implementation is used when Node has it (several times faster); the table-driven one otherwise.
 */
import zlib from 'node:zlib';

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

const native: ((data: Uint8Array, seed: number) => number) | null =
  typeof zlib.crc32 === 'function' ? (data, seed) => zlib.crc32(data, seed) : null;

/** The table-driven CRC-32, kept for Node versions without zlib.crc32 (and to check the native one). */
export function crc32Portable(bytes: Uint8Array, start = 0, end = bytes.length, seed = 0): number {
  let crc = (seed ^ 0xffffffff) >>> 0;
  for (let i = start; i < end; i++) crc = TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** CRC-32 of bytes[start, end); pass a previous result as `seed` to continue a running checksum. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length, seed = 0): number {
  if (native === null) return crc32Portable(bytes, start, end, seed);
  return native(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end), seed) >>> 0;
}
