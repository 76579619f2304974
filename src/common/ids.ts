/**
 * Document `_id`s: 64-bit numbers, unique and ordered by time. The high 42 bits are
 * milliseconds since 2020-01-01T00:00:00Z (good until 2159), the low 22 bits a sequence within
 * that millisecond (4,194,304 ids per ms). When the sequence runs out, or the clock steps back,
 * the generator borrows the next millisecond, so ids never repeat and never decrease.
 */

import { createHash } from 'node:crypto';

export const ID_EPOCH_MS = Date.UTC(2020, 0, 1);
const SEQUENCE_BITS = 22n;
const SEQUENCE_LIMIT = 1 << 22;

export class IdGenerator {
  private lastMs = 0;
  private sequence = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  /** Never hand out an id at or below `id` (ids persisted before a restart). */
  observe(id: bigint): void {
    const ms = Number(id >> SEQUENCE_BITS);
    const sequence = Number(id & BigInt(SEQUENCE_LIMIT - 1));
    if (ms > this.lastMs || (ms === this.lastMs && sequence >= this.sequence)) {
      this.lastMs = ms;
      this.sequence = sequence + 1;
    }
  }

  next(): bigint {
    const ms = this.clock() - ID_EPOCH_MS;
    if (ms > this.lastMs) {
      this.lastMs = ms;
      this.sequence = 0;
    } else if (this.sequence >= SEQUENCE_LIMIT) {
      this.lastMs += 1;
      this.sequence = 0;
    }
    const id = (BigInt(this.lastMs) << SEQUENCE_BITS) | BigInt(this.sequence);
    this.sequence += 1;
    return id;
  }
}

/** The epoch ms an `_id` was generated at. */
export function idTimestampMs(id: bigint): number {
  return Number(id >> SEQUENCE_BITS) + ID_EPOCH_MS;
}

/**
 * A client-supplied `_id` is kept in the same 64-bit column as a 63-bit hash of its text with
 * the top bit set: generated ids leave that bit clear until 2159, so the two never meet. The
 * text itself is stored with the document (see `src/engine/document/identity.ts`).
 */
export const CLIENT_KEY_FLAG = 1n << 63n;

/** The 64-bit key of a client-supplied `_id`. */
export function clientKey(id: string): bigint {
  const digest = createHash('sha256').update(id, 'utf8').digest();
  return digest.readBigUInt64LE(0) | CLIENT_KEY_FLAG;
}

/** Whether a stored `_id` column value is the key of a client-supplied `_id` (not a generated id). */
export function isClientKey(key: bigint): boolean {
  return key >= CLIENT_KEY_FLAG;
}

/** The generated id a decimal `_id` text names, or undefined when it cannot be one. */
export function parseGeneratedId(text: string): bigint | undefined {
  if (!/^\d{1,20}$/.test(text)) return undefined;
  const id = BigInt(text);
  return id < CLIENT_KEY_FLAG ? id : undefined;
}
