/**
 * Validation of one WAL file's bytes: where its records are and whether it ends in a torn tail.
 * A torn tail (a write cut short by a crash) is only possible at the end of the newest file and
 * is recognised by nothing valid following the first bad frame; anything else is corruption.
 */
import { crc32 } from '../../common/crc32.js';
import { CorruptionError } from '../../common/errors.js';
import { FRAME_HEADER_BYTES, HEADER_BYTES, MAX_RECORD_BYTES, WAL_MAGIC, WAL_VERSION } from './format.js';

export interface WalFileScan {
  /** byte offset of each valid frame, in file order */
  frames: number[];
  /** end of the last valid record: the file's length once a torn tail is cut off */
  goodEnd: number;
  /** set when the file ends in a torn tail that must be cut off */
  torn?: { offset: number; reason: string };
  /** the header itself never made it to disk: the file holds nothing and can be removed */
  headerTorn: boolean;
}

/**
 * Scans a WAL file. `isLast` allows a torn tail (the newest file is the only one a crash can have
 * cut short); any invalid byte in an older file, or a bad frame followed by a valid one, throws
 * CorruptionError naming `file` and the offset.
 */
export function scanWalFile(buf: Buffer, file: string, expectedSeq: number, isLast: boolean): WalFileScan {
  if (buf.length < HEADER_BYTES || isAllZero(buf)) {
    if (!isLast) throw new CorruptionError(file, 'truncated or empty header');
    return { frames: [], goodEnd: 0, torn: { offset: 0, reason: 'torn header' }, headerTorn: true };
  }
  if (buf.readUInt32LE(0) !== WAL_MAGIC) throw new CorruptionError(file, 'bad magic at offset 0');
  const version = buf.readUInt32LE(4);
  if (version !== WAL_VERSION) throw new CorruptionError(file, `unsupported wal version ${version}`);
  const seq = buf.readBigUInt64LE(8);
  if (seq !== BigInt(expectedSeq)) throw new CorruptionError(file, `header names seq ${seq}, file name ${expectedSeq}`);

  const frames: number[] = [];
  let at = HEADER_BYTES;
  while (at < buf.length) {
    const problem = frameProblem(buf, at);
    if (problem === undefined) {
      frames.push(at);
      at += FRAME_HEADER_BYTES + buf.readUInt32LE(at);
      continue;
    }
    if (!isLast) throw new CorruptionError(file, `${problem} at offset ${at}`);
    const next = findValidFrame(buf, at + 1);
    if (next !== -1) {
      throw new CorruptionError(file, `${problem} at offset ${at}, followed by a valid record at offset ${next}`);
    }
    return { frames, goodEnd: at, torn: { offset: at, reason: problem }, headerTorn: false };
  }
  return { frames, goodEnd: at, headerTorn: false };
}

/** Why the frame at `at` is not a record, or undefined when it is one. */
function frameProblem(buf: Buffer, at: number): string | undefined {
  const remaining = buf.length - at;
  if (remaining < FRAME_HEADER_BYTES) return 'short record header';
  const length = buf.readUInt32LE(at);
  // crc32 of no bytes is 0, so a zero-filled region would otherwise read as valid empty records
  if (length === 0) return 'zero length record';
  if (length > MAX_RECORD_BYTES || length > remaining - FRAME_HEADER_BYTES) return 'short record payload';
  const start = at + FRAME_HEADER_BYTES;
  if (crc32(buf, start, start + length) !== buf.readUInt32LE(at + 4)) return 'checksum mismatch';
  return undefined;
}

/**
 * The first offset >= `from` holding a complete frame with a matching checksum, or -1. Unaligned
 * offsets are tried too: a corrupted length field must not hide the valid records behind it.
 */
function findValidFrame(buf: Buffer, from: number): number {
  for (let p = from; p + FRAME_HEADER_BYTES < buf.length; p++) {
    if (frameProblem(buf, p) === undefined) return p;
  }
  return -1;
}

function isAllZero(buf: Buffer): boolean {
  for (let i = 0; i < buf.length; i++) if (buf[i] !== 0) return false;
  return true;
}
