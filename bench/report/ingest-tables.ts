/** Rows of the per-thread CPU and concurrency-sweep tables, shared by the terminal and Markdown reports. */
import type { PhaseThreadCpu } from '../harness/index.js';
import type { SweepPoint } from '../ingest/index.js';

/** threads below this many cores are summed into one row */
const SHOWN_CORES = 0.01;

const n = (v: number, d = 0) => v.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d });

/** what a thread's name says it is */
export function threadRole(name: string): string {
  if (name === 'main') return 'main thread (HTTP, scanning, WAL)';
  if (name === 'svc-indexer') return 'indexing thread (memtables)';
  if (name === 'svc-flush') return 'flush thread (memtable snapshots to segment files)';
  if (name === 'svc-query') return 'query thread';
  if (name === 'svc-seg-writer') return 'segment writer thread (merges)';
  if (name === 'svc-catalog') return 'catalog thread (SQLite writes and their fsyncs)';
  if (name === 'node') return 'Node internal (V8 GC/compiler or libuv pool)';
  return name;
}

/** Header of the per-thread table: one share column per phase. */
export function threadHeader(phases: readonly string[]): string[] {
  return ['thread', 'tid', ...phases.map((p) => `${p}: share of a core`), 'CPU s'];
}

/**
 * One row per thread that used at least 1 % of a core in some phase (matched by tid), then the
 * rest summed, then what ended threads used between samples; CPU s is over all phases.
 */
export function threadRows(phases: readonly PhaseThreadCpu[]): string[][] {
  const byTid = new Map<number, { name: string; ended: boolean; cpu: number[] }>();
  phases.forEach((phase, i) => {
    for (const th of phase.threads) {
      let row = byTid.get(th.tid);
      if (!row) byTid.set(th.tid, (row = { name: th.name, ended: false, cpu: phases.map(() => 0) }));
      row.cpu[i] = th.cpuSeconds;
      row.ended = !th.alive;
    }
  });
  const share = (seconds: number, i: number) => `${n((seconds / phases[i]!.wallSeconds) * 100, 1)} %`;
  const shown: string[][] = [];
  const rest = phases.map(() => 0);
  let restCount = 0;
  const rows = [...byTid.entries()].sort((a, b) => sum(b[1].cpu) - sum(a[1].cpu) || a[0] - b[0]);
  for (const [tid, row] of rows) {
    if (row.cpu.every((c, i) => c / phases[i]!.wallSeconds < SHOWN_CORES)) {
      restCount++;
      row.cpu.forEach((c, i) => (rest[i]! += c));
      continue;
    }
    shown.push([`${threadRole(row.name)}${row.ended ? ', ended' : ''}`, String(tid), ...row.cpu.map(share), n(sum(row.cpu), 2)]);
  }
  if (restCount > 0) shown.push([`${restCount} other threads, each under ${SHOWN_CORES * 100} %`, '', ...rest.map(share), n(sum(rest), 2)]);
  const gone = phases.map((p) => p.unaccountedCpuSeconds ?? 0);
  if (gone.some((g, i) => g / phases[i]!.wallSeconds >= SHOWN_CORES)) shown.push(['threads that ended between samples', '', ...gone.map(share), n(sum(gone), 2)]);
  return shown;
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
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
