/**
 * The write-ahead log of a cache node: files `wal-<seq, 16 digits>.log` in one directory, each a
 * 16-byte header (u32 magic "SWAL", u32 version, u64 seq) then records framed as
 * [u32 payload length][u32 crc32 of payload][payload], little endian. Payloads are opaque here.
 */
export { Wal, type WalLogger, type WalOptions, type WalRecord, type WalStats } from './wal.js';
export { walFileName } from './format.js';
