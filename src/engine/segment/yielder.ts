/**
 * Lets long loops on the main thread give the event loop a turn about every few milliseconds,
 * so that a big flush or merge does not stall request handling.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Default longest stretch of work between two turns of the event loop. */
export const SLICE_MS = 8;
const CHECK_EVERY = 32;

export class Yielder {
  constructor(private readonly sliceMs = SLICE_MS) {}

  private last = performance.now();
  private calls = 0;

  /** Cheap check, meant for every iteration: true when the caller should `await pause()`. */
  due(): boolean {
    if (++this.calls % CHECK_EVERY !== 0) return false;
    return performance.now() - this.last >= this.sliceMs;
  }

  /** The same check for loops whose steps take a millisecond or so (a compressed block). */
  dueNow(): boolean {
    return performance.now() - this.last >= this.sliceMs;
  }

  async pause(): Promise<void> {
    await nextTurn();
    this.last = performance.now();
  }
}
