/** The human-readable summary of a run printed at its end. */
import type { BenchResults } from './results.js';
import { renderTable } from './table.js';
import { SWEEP_HEADER, sweepRows, threadHeader, threadRows } from './ingest-tables.js';

const MiB = 1024 * 1024;
/** other processes using more than this many cores make a run's figures doubtful */
export const COMPETITION_CORES = 0.25;

export function renderSummary(r: BenchResults): string {
  const out: string[] = [];
  const n = (v: number, d = 0) => v.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d });
  const cores = (v: number | null) => (v === null ? 'n/a' : n(v, 2));
  const mib = (v: number | null) => (v === null ? 'n/a' : `${n(v / MiB, 1)} MiB`);

  out.push(`corpus: ${n(r.corpus.docs)} docs, ${n(r.corpus.documentBytes / 1e6, 1)} MB of document lines (${n(r.corpus.avgDocumentLineBytes, 1)} B each), ${n(r.corpus.totalBytes / 1e6, 1)} MB of NDJSON sent, seed ${r.corpus.seed}`);
  out.push('');
  if (r.sweep.length > 0) {
    out.push(`concurrency sweep (a fresh service per row, ingest and _flush only, batch ${String(r.options.batch)}):`);
    out.push(renderTable(SWEEP_HEADER, sweepRows(r.sweep), new Set([0, 1, 2, 3, 4, 5, 6, 7])));
    out.push('');
  }
  const ing = r.ingest;
  const untilFlushed = ing.untilFlushed;
  out.push(renderTable(
    ['ingest', 'docs/s', 'MB/s', 'seconds'],
    [
      ['until flushed (last bulk answer + _flush)', untilFlushed ? n(untilFlushed.docsPerSec) : 'n/a', untilFlushed ? n(untilFlushed.mbPerSec, 1) : 'n/a', untilFlushed ? n(untilFlushed.elapsedMs / 1000, 1) : 'n/a'],
      ['whole run (to the last bulk answer)', n(ing.whole.docsPerSec), n(ing.whole.mbPerSec, 1), n(ing.whole.elapsedMs / 1000, 1)],
      ['sustained (after first 5 %)', n(ing.sustained.docsPerSec), n(ing.sustained.mbPerSec, 1), n(ing.sustained.elapsedMs / 1000, 1)],
    ],
    new Set([1, 2, 3]),
  ));
  out.push(`bulk requests: ${ing.requests}, median ${n(ing.requestMs.median, 1)} ms, p90 ${n(ing.requestMs.p90, 1)} ms, max ${n(ing.requestMs.max, 1)} ms; retries ${ing.retries}; failed items ${ing.failedItems}${ing.firstFailure ? ` (${ing.firstFailure})` : ''}`);
  out.push(`CPU during ingest: service ${cores(ing.cpu.serverCores)} cores (${n(ing.cpu.serverCpuSeconds ?? NaN, 1)} s), benchmark client ${cores(ing.cpu.clientCores)}, other processes ${cores(ing.cpu.otherProcessesCores)} (of ${r.environment.cpus})`);
  if ((ing.cpu.otherProcessesCores ?? 0) > COMPETITION_CORES) out.push(`WARNING: other processes used ${cores(ing.cpu.otherProcessesCores)} cores during ingest; the service got less CPU than the machine has, and its figures understate it`);
  out.push('CPU of the service by thread, during ingest and during _flush:');
  out.push(renderTable(threadHeader(['ingest', '_flush']), threadRows([ing.threads, r.flushThreads]), new Set([1, 2, 3, 4])));
  out.push(`visible right after ingest: ${ing.visibleAtOnceDocs === null ? 'unknown' : n(ing.visibleAtOnceDocs)} docs; flush: ${!r.flush.available ? `no endpoint (status ${r.flush.status ?? 'n/a'})` : r.flush.error ? `FAILED after ${n(r.flush.ms ?? 0)} ms with status ${r.flush.status}` : `${n(r.flush.ms ?? 0)} ms`}; visible after the flush: ${ing.visibleDocs === null ? 'unknown' : n(ing.visibleDocs)} docs${ing.visibleAfterMs !== null ? ` (after ${n(ing.visibleAfterMs)} ms)` : ''}`);
  out.push(`before the queries: ${r.settle.settled ? 'settled' : 'NOT settled'} after ${n(r.settle.waitedMs / 1000, 1)} s (${r.settle.reason}; WAL ${mib(r.settle.walBytesAtEnd)})`);
  out.push('');
  out.push(renderTable(
    ['query', 'median ms', 'p90 ms', 'p99 ms', 'took ms', 'hits', 'answer'],
    r.queries.map((q) => [
      q.title,
      q.errors ? 'error' : n(q.medianMs, 1),
      q.errors ? '' : n(q.p90Ms, 1),
      q.errors ? '' : n(q.p99Ms, 1),
      q.tookMedianMs === null ? '' : n(q.tookMedianMs, 0),
      q.hitsTotal === null ? '' : n(q.hitsTotal),
      q.problem ? `WRONG: ${q.problem}` : 'ok',
    ]),
    new Set([1, 2, 3, 4, 5]),
  ));
  const ui = r.underIngest;
  if (ui) {
    out.push('');
    out.push(`while ${n(ui.ingest.whole.docs)} docs went into ${ui.loadIndex} at ${n(ui.ingest.whole.docsPerSec)} docs/s (${n(ui.ingest.whole.elapsedMs / 1000, 1)} s):`);
    out.push(renderTable(
      ['query under ingest', 'samples', 'median ms', 'p99 ms', 'answer'],
      ui.queries.map((q) => [q.title, n(q.samples), q.errors ? 'error' : n(q.medianMs, 1), q.errors ? '' : n(q.p99Ms, 1), q.problem ? `WRONG: ${q.problem}` : 'ok']),
      new Set([1, 2, 3]),
    ));
  }
  out.push(`CPU during queries: service ${cores(r.queriesCpu.serverCores)} cores, benchmark client ${cores(r.queriesCpu.clientCores)}, other processes ${cores(r.queriesCpu.otherProcessesCores)} over ${n(r.queriesCpu.wallSeconds, 1)} s`);
  if ((r.queriesCpu.otherProcessesCores ?? 0) > COMPETITION_CORES) out.push(`WARNING: other processes used ${cores(r.queriesCpu.otherProcessesCores)} cores during the queries`);
  out.push('');
  const m = r.memory;
  out.push(`memory: peak RSS ${mib(m.peakRssBytes)} (VmHWM ${mib(m.highWaterMarkBytes)}, sampled ${mib(m.peakSampledRssBytes)}); after ingest ${mib(m.rssAfterIngestBytes)}, after queries ${mib(m.rssAfterQueriesBytes)}`);
  const f = r.diskAfterFlush;
  const c = r.compaction;
  out.push(`disk after flush: ${mib(f.totalBytes)}, ${f.segmentFiles} segment files = ${n(f.totalPerRawByte * 100, 1)} % of raw (quick files); after _forcemerge into one segment (${c.error ? `FAILED, status ${c.status}` : `${n(c.ms / 1000, 1)} s`}): ${mib(c.disk.totalBytes)} = ${n(c.totalPerRawByte * 100, 1)} %`);
  const d = r.disk;
  out.push(`disk after shutdown: ${mib(d.totalBytes)} in ${d.files} files${d.extraLinks ? ` (+${d.extraLinks} hard links counted once)` : ''} = ${n(d.totalPerRawByte * 100, 1)} % of raw document bytes; segments ${mib(d.segmentBytes)} in ${d.segmentFiles} files (${n(d.segmentsPerRawByte * 100, 1)} %), WAL ${mib(d.walBytes)} in ${d.walFiles} files (${n(d.walPerRawByte * 100, 1)} %), metastore ${mib(d.metastoreBytes)}, other ${mib(d.otherBytes)}`);
  out.push(`server: started in ${n(r.server.startMs)} ms, SIGTERM to exit ${n(r.server.stopMs)} ms (exit code ${r.server.exitCode ?? 'none'}${r.server.signal ? `, signal ${r.server.signal}` : ''}${r.server.killed ? ', KILLED after timeout' : ''})`);
  if (r.server.loggedErrors > 0) out.push(`server logged ${r.server.loggedErrors} errors, first: ${r.server.firstLoggedError ?? '(no message)'}`);
  out.push('');
  out.push(renderTable(
    ['target', 'goal', 'measured', ''],
    r.targets.map((t) => [t.name, t.target, t.measured, t.pass === null ? '?' : t.pass ? 'PASS' : 'FAIL']),
    new Set([2]),
  ));
  return out.join('\n');
}
