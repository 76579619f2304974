/**
 * The search's hard time limit, checked between segments and every ~64k steps of long loops.
 */
import { QueryTimeoutError } from '../../common/errors.js';

export class Deadline {
  constructor(readonly atMs: number | undefined) {}

  /** Throws QueryTimeoutError once the deadline has passed. */
  check(): void {
    if (this.atMs !== undefined && Date.now() > this.atMs) {
      throw new QueryTimeoutError('search exceeded its time limit');
    }
  }
}

/** Loop counters test `(i & TICK_MASK) === 0` to decide when to look at the clock. */
export const TICK_MASK = 0xffff;
