/**
 * Waits until the service is at rest after ingest: its memtables flushed (the write-ahead log
 * nearly empty, since the log is truncated once segments hold its documents) and its CPU idle.
 * Queries timed before that would share the event loop with flushes and merges that happen to
 * be running, and measure the coincidence rather than the query.
 */
import fs from 'node:fs';
import path from 'node:path';
import { processCpuSeconds } from './cpu-time.js';

export interface SettleOptions {
  pid: number;
  dataDir: string;
  /** wait for the memtables to reach segment files, not only for idle CPU */
  waitFlushed: boolean;
  /** the WAL counts as flushed below this many bytes */
  walFlushedBytes: number;
  timeoutMs: number;
  /** CPU use, in cores, below which the service counts as idle */
  idleCores?: number;
}

export interface SettleResult {
  settled: boolean;
  waitedMs: number;
  /** why waiting stopped */
  reason: string;
  walBytesAtEnd: number;
  /** CPU use, in cores, under which the service counted as idle */
  idleCores: number;
}

const STEP_MS = 500;
/** consecutive idle steps needed */
const IDLE_STEPS = 3;

export async function waitSettled(opts: SettleOptions): Promise<SettleResult> {
  const started = performance.now();
  const idleCores = opts.idleCores ?? 0.05;
  let idleSteps = 0;
  let cpu = processCpuSeconds(opts.pid);
  let wal = walBytes(opts.dataDir);
  while (performance.now() - started < opts.timeoutMs) {
    await new Promise((r) => setTimeout(r, STEP_MS));
    const now = processCpuSeconds(opts.pid);
    if (now === undefined || cpu === undefined) return done(false, 'cannot read the service CPU time');
    const cores = (now - cpu) / (STEP_MS / 1000);
    cpu = now;
    wal = walBytes(opts.dataDir);
    idleSteps = cores < idleCores ? idleSteps + 1 : 0;
    const flushed = !opts.waitFlushed || wal <= opts.walFlushedBytes;
    if (flushed && idleSteps >= IDLE_STEPS) return done(true, opts.waitFlushed ? 'flushed and idle' : 'idle');
  }
  return done(false, `not ${opts.waitFlushed ? 'flushed and idle' : 'idle'} after ${opts.timeoutMs} ms`);

  function done(settled: boolean, reason: string): SettleResult {
    return { settled, reason, waitedMs: performance.now() - started, walBytesAtEnd: wal, idleCores };
  }
}

function walBytes(dataDir: string): number {
  const dir = path.join(dataDir, 'wal');
  let total = 0;
  try {
    for (const name of fs.readdirSync(dir)) {
      try {
        total += fs.statSync(path.join(dir, name)).size;
      } catch {
        // removed between listing and stat: it holds nothing any more
      }
    }
  } catch {
    return 0;
  }
  return total;
}
