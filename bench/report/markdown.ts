/** A run's figures as a Markdown section, written beside the JSON for pasting into the docs. */
import type { BenchResults } from './results.js';
import { SWEEP_HEADER, sweepRows, threadHeader, threadRows } from './ingest-tables.js';

function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

const MiB = 1024 * 1024;

export function renderMarkdown(r: BenchResults): string {
  const n = (v: number | null, d = 0) => (v === null || Number.isNaN(v) ? 'n/a' : v.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d }));
  const mark = (pass: boolean | null) => (pass === null ? '?' : pass ? 'pass' : '**FAIL**');
  const e = r.environment;
  const lines = [
    `Run of ${r.startedAt.slice(0, 10)} at commit \`${e.gitCommit ?? 'unknown'}\`: ${n(r.corpus.docs)} documents (seed ${r.corpus.seed}, ${n(r.corpus.documentBytes / 1e6, 1)} MB of document lines, ${n(r.corpus.totalBytes / 1e6, 1)} MB of NDJSON), batch ${String(r.options.batch)}, concurrency ${String(r.options.concurrency)}; ${e.cpus} × ${e.cpuModel}, Node ${e.node}, ${e.platform}.`,
    '',
    '| figure | target | measured | |',
    '|---|---|---|---|',
    ...r.targets.map((t) => `| ${t.name} | ${t.target} | ${t.measured} | ${mark(t.pass)} |`),
    '',
    '| other figures | measured |',
    '|---|---|',
    `| ingest, whole run | ${n(r.ingest.whole.docsPerSec)} docs/s, ${n(r.ingest.whole.mbPerSec, 1)} MB/s, ${n(r.ingest.whole.elapsedMs / 1000, 1)} s |`,
    `| ingest, sustained | ${n(r.ingest.sustained.docsPerSec)} docs/s, ${n(r.ingest.sustained.mbPerSec, 1)} MB/s |`,
    `| \`_flush\` | ${!r.flush.available ? 'no endpoint' : r.flush.error ? `failed (status ${r.flush.status})` : `${n(r.flush.ms)} ms`} |`,
    `| wait before the queries | ${n(r.settle.waitedMs / 1000, 1)} s, ${r.settle.settled ? '' : 'not '}settled: ${r.settle.reason} |`,
    `| CPU during ingest: service, other processes | ${n(r.ingest.cpu.serverCores, 2)} cores, ${n(r.ingest.cpu.otherProcessesCores, 2)} cores |`,
    `| CPU during queries: service, other processes | ${n(r.queriesCpu.serverCores, 2)} cores, ${n(r.queriesCpu.otherProcessesCores, 2)} cores |`,
    `| \`_bulk\` request of ${String(r.options.batch)} docs | median ${n(r.ingest.requestMs.median)} ms, p90 ${n(r.ingest.requestMs.p90)} ms |`,
    ...r.queries.map((q) => `| ${q.title}: p90, server \`took\` median, hits | ${n(q.p90Ms, 1)} ms, ${n(q.tookMedianMs)} ms, ${n(q.hitsTotal)}${q.problem ? ` (WRONG: ${q.problem})` : ''} |`),
    `| data directory after flush (quick files) | ${n(r.diskAfterFlush.totalBytes / MiB, 1)} MiB in ${r.diskAfterFlush.segmentFiles} segment files = ${n(r.diskAfterFlush.totalPerRawByte * 100, 1)} % of raw |`,
    `| \`_forcemerge\` into one segment, data directory after it | ${r.compaction.error ? `failed (status ${r.compaction.status})` : `${n(r.compaction.ms / 1000, 1)} s`}, ${n(r.compaction.disk.totalBytes / MiB, 1)} MiB = ${n(r.compaction.totalPerRawByte * 100, 1)} % of raw |`,
    `| data directory after shutdown | ${n(r.disk.totalBytes / MiB, 1)} MiB = ${n(r.disk.totalPerRawByte * 100, 1)} % of raw |`,
    `| segment files | ${n(r.disk.segmentBytes / MiB, 1)} MiB in ${r.disk.segmentFiles} files = ${n(r.disk.segmentsPerRawByte * 100, 1)} % of raw |`,
    `| WAL left after shutdown | ${n(r.disk.walBytes / MiB, 1)} MiB in ${r.disk.walFiles} files = ${n(r.disk.walPerRawByte * 100, 1)} % of raw |`,
    `| RSS after ingest / after queries | ${n((r.memory.rssAfterIngestBytes ?? NaN) / MiB)} MiB / ${n((r.memory.rssAfterQueriesBytes ?? NaN) / MiB)} MiB |`,
    `| SIGTERM to exit | ${n(r.server.stopMs)} ms |`,
  ];
  lines.push('', 'CPU of the service by thread, during ingest and during `_flush`:', '', ...markdownTable(threadHeader(['ingest', '`_flush`']), threadRows([r.ingest.threads, r.flushThreads])));
  if (r.underIngest) {
    const ui = r.underIngest;
    lines.push('', `Queries while ${n(ui.ingest.whole.docs)} docs went into a second index at ${n(ui.ingest.whole.docsPerSec)} docs/s:`, '', ...markdownTable(['query', 'samples', 'median ms', 'p99 ms'], ui.queries.map((q) => [q.title, n(q.samples), n(q.medianMs, 1), n(q.p99Ms, 1)])));
  }
  if (r.sweep.length > 0) lines.push('', 'Concurrency sweep (a fresh service per row, ingest and `_flush` only):', '', ...markdownTable(SWEEP_HEADER, sweepRows(r.sweep)));
  if (r.server.loggedErrors > 0) lines.push('', `The service logged ${r.server.loggedErrors} errors; the first: ${r.server.firstLoggedError ?? ''}`);
  return `${lines.join('\n')}\n`;
}
