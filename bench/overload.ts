#!/usr/bin/env node
/**
 * The long overload run (see faults/overload.ts): prints answers by status, liveness probes and
 * their longest wait, and the peak RSS against the configured budgets.
 *
 *   npm run build && node dist/bench/overload.js --seconds 60
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { runOverload } from './faults/index.js';
import { integer, repoRoot } from './harness/index.js';

const MiB = 1024 * 1024;

async function main(): Promise<void> {
  const opts = new Command('overload')
    .option('--seconds <n>', 'how long the overload lasts', integer(1), 60)
    .option('--search-clients <n>', 'clients sending expensive searches', integer(1), 32)
    .option('--writers <n>', 'bulk writers', integer(1), 4)
    .option('--aggregation-memory-mib <n>', 'SVC_AGGREGATION_MEMORY_BYTES in MiB', integer(1), 16)
    .option('--memtable-mib <n>', 'SVC_MEMTABLE_MAX_BYTES in MiB', integer(1), 64)
    .option('--wal-mib <n>', 'SVC_WAL_MAX_UNFLUSHED_BYTES in MiB', integer(1), 128)
    .option('--reader-cache-mib <n>', 'SVC_READER_CACHE_BYTES in MiB (the default of the service)', integer(0), 256)
    .option('--in-flight-mib <n>', 'SVC_IN_FLIGHT_REQUESTS_BYTES in MiB (request bodies and answers held at once)', integer(1), 32)
    .option('--query-queue <n>', 'SVC_QUERY_QUEUE_SIZE (searches waiting for a turn before 429)', integer(0), 8)
    .option('--backoff-ms <n>', 'how long a client waits after a 429', integer(0), 100)
    .option('--memory-limit-mib <n>', 'SVC_MEMORY_LIMIT_BYTES in MiB (0: none, the default of the service)', integer(0), 0)
    .option('--server-node-args <args>', 'extra node flags for the service, space-separated', '')
    .parse()
    .opts<{ seconds: number; searchClients: number; writers: number; aggregationMemoryMib: number; memtableMib: number; walMib: number; readerCacheMib: number; inFlightMib: number; queryQueue: number; backoffMs: number; memoryLimitMib: number; serverNodeArgs: string }>();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-overload-'));
  try {
    const report = await runOverload({
      repoRoot: repoRoot(),
      workDir,
      durationMs: opts.seconds * 1000,
      searchClients: opts.searchClients,
      writers: opts.writers,
      aggregationMemoryBytes: opts.aggregationMemoryMib * MiB,
      memtableMaxBytes: opts.memtableMib * MiB,
      walMaxUnflushedBytes: opts.walMib * MiB,
      readerCacheBytes: opts.readerCacheMib * MiB,
      inFlightRequestsBytes: opts.inFlightMib * MiB,
      queryQueueSize: opts.queryQueue,
      backoffMs: opts.backoffMs,
      ...(opts.memoryLimitMib > 0 ? { memoryLimitBytes: opts.memoryLimitMib * MiB } : {}),
      nodeArgs: opts.serverNodeArgs.split(' ').filter((a) => a.length > 0),
    });
    process.stdout.write(
      `${JSON.stringify({ ...report, peakRssMiB: Math.round(report.peakRssBytes / MiB), aggregationBudgetMiB: Math.round(report.aggregationMemoryBytes / MiB), readerCacheMiB: Math.round(report.readerCacheBytes / MiB), peakInFlightMiB: +(report.peakInFlightBytes / MiB).toFixed(1), peakMainHeapMiB: Math.round(report.peakMainHeapBytes / MiB), budgetMiB: Math.round(report.budgetBytes / MiB) }, null, 2)}\n`,
    );
    if (!report.alive || report.unexpected.length > 0 || report.livenessFailures > 0) process.exitCode = 1;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
