/** Rows of the per-thread CPU and concurrency-sweep tables, shared by the terminal and Markdown reports. */
import type { PhaseThreadCpu } from '../harness/index.js';
import type { SweepPoint } from '../ingest/index.js';

/** threads below this many cores are summed into one row */
const SHOWN_CORES = 0.01;

const n = (v: number, d = 0) => v.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d });

/** what a thread's name says it is */
export function threadRole(name: string): string {
  if (name === 'main') return 'main thread (HTTP, parsing, WAL, memtable, flush)';
  if (name === 'svc-query') return 'query thread';
  if (name === 'svc-seg-writer') return 'segment writer thread (merges)';
  if (name === 'node') return 'Node internal (V8 GC/compiler or libuv pool)';
  return name;
}

export const THREAD_HEADER = ['thread', 'tid', 'share of a core', 'CPU s'] as const;

export function threadRows(t: PhaseThreadCpu): string[][] {
  const rows: string[][] = [];
  let restCount = 0;
  let restSeconds = 0;
  for (const th of t.threads) {
    if (th.cores < SHOWN_CORES) {
      restCount++;
      restSeconds += th.cpuSeconds;
      continue;
    }
    rows.push([`${threadRole(th.name)}${th.alive ? '' : ', ended'}`, String(th.tid), `${n(th.cores * 100, 1)} %`, n(th.cpuSeconds, 2)]);
  }
  if (restCount > 0) rows.push([`${restCount} other threads, each under ${SHOWN_CORES * 100} %`, '', `${n((restSeconds / t.wallSeconds) * 100, 1)} %`, n(restSeconds, 2)]);
  if (t.unaccountedCpuSeconds !== null && t.unaccountedCpuSeconds / t.wallSeconds >= SHOWN_CORES) {
    rows.push(['threads that ended between samples', '', `${n((t.unaccountedCpuSeconds / t.wallSeconds) * 100, 1)} %`, n(t.unaccountedCpuSeconds, 2)]);
  }
  return rows;
}

export const SWEEP_HEADER = ['concurrency', 'until flushed docs/s', 'MB/s', 'ingest only docs/s', 'MB/s', '_flush s', 'service cores', 'main thread'] as const;

export function sweepRows(points: readonly SweepPoint[]): string[][] {
  return points.map((p) => {
    const main = p.threads.threads.find((t) => t.name === 'main');
    return [
      String(p.concurrency),
      p.untilFlushed ? n(p.untilFlushed.docsPerSec) : 'n/a',
      p.untilFlushed ? n(p.untilFlushed.mbPerSec, 1) : 'n/a',
      n(p.whole.docsPerSec),
      n(p.whole.mbPerSec, 1),
      p.flush.ms === null ? 'n/a' : n(p.flush.ms / 1000, 1),
      p.cpu.serverCores === null ? 'n/a' : n(p.cpu.serverCores, 2),
      main ? `${n(main.cores * 100, 0)} %` : 'n/a',
    ];
  });
}
