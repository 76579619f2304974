#!/usr/bin/env node
/**
 * The long slow-disk run (see faults/slow-disk.ts): the data directory on a loop device
 * throttled for the service with the cgroup I/O controller; prints each phase's bulk answers
 * and latencies, the longest search and liveness waits, and the counts before and after a
 * restart against the documents acknowledged. Needs root.
 *
 *   npm run build && node dist/bench/slow-disk.js --slow-seconds 60
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { runSlowDisk } from './faults/index.js';
import { integer, repoRoot } from './harness/index.js';

const KiB = 1024;
const MiB = 1024 * KiB;

async function main(): Promise<void> {
  const opts = new Command('slow-disk')
    .option('--normal-seconds <n>', 'ingest before the throttle', integer(1), 15)
    .option('--slow-seconds <n>', 'ingest while throttled', integer(1), 60)
    .option('--recovered-seconds <n>', 'ingest after the throttle is lifted', integer(1), 20)
    .option('--write-kib-per-second <n>', 'write bandwidth of the throttled device', integer(1), 512)
    .option('--write-iops <n>', 'write operations per second of the throttled device', integer(1), 50)
    .option('--read-kib-per-second <n>', 'read bandwidth of the throttled device', integer(1), 2048)
    .option('--read-iops <n>', 'read operations per second of the throttled device', integer(1), 200)
    .option('--writers <n>', 'bulk writers', integer(1), 4)
    .option('--docs-per-bulk <n>', 'documents per bulk request', integer(1), 1000)
    .option('--client-timeout-seconds <n>', 'how long a client waits for an answer', integer(1), 30)
    .option('--memtable-mib <n>', 'SVC_MEMTABLE_MAX_BYTES in MiB', integer(1), 8)
    .option('--wal-mib <n>', 'SVC_WAL_MAX_UNFLUSHED_BYTES in MiB', integer(1), 8)
    .option('--device-mib <n>', 'size of the throttled filesystem', integer(64), 2048)
    .parse()
    .opts<{
      normalSeconds: number;
      slowSeconds: number;
      recoveredSeconds: number;
      writeKibPerSecond: number;
      writeIops: number;
      readKibPerSecond: number;
      readIops: number;
      writers: number;
      docsPerBulk: number;
      clientTimeoutSeconds: number;
      memtableMib: number;
      walMib: number;
      deviceMib: number;
    }>();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-slow-disk-'));
  try {
    const report = await runSlowDisk({
      repoRoot: repoRoot(),
      workDir,
      deviceBytes: opts.deviceMib * MiB,
      limits: { writeBytesPerSecond: opts.writeKibPerSecond * KiB, writeIops: opts.writeIops, readBytesPerSecond: opts.readKibPerSecond * KiB, readIops: opts.readIops },
      normalMs: opts.normalSeconds * 1000,
      slowMs: opts.slowSeconds * 1000,
      recoveredMs: opts.recoveredSeconds * 1000,
      writers: opts.writers,
      docsPerBulk: opts.docsPerBulk,
      clientTimeoutMs: opts.clientTimeoutSeconds * 1000,
      memtableMaxBytes: opts.memtableMib * MiB,
      walMaxUnflushedBytes: opts.walMib * MiB,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    if (typeof report === 'string') {
      process.stderr.write(`cannot throttle a disk on this machine: ${report}\n`);
      process.exitCode = 2;
      return;
    }
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    const lost = report.acknowledged !== report.countBeforeRestart || report.acknowledged !== report.countAfterRestart;
    if (lost || report.unexpected.length > 0 || report.lastStatuses.some((s) => s !== 200)) process.exitCode = 1;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
