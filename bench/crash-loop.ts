#!/usr/bin/env node
/**
 * The long crash loop: at least 50 SIGKILLs of the service under four bulk writers and an index
 * churn, each followed by a restart and a full read-back (see faults/crash-loop.ts).
 *
 *   npm run build && node dist/bench/crash-loop.js --kills 50
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { runCrashLoop } from './faults/index.js';
import { integer, repoRoot } from './harness/index.js';

async function main(): Promise<void> {
  const opts = new Command('crash-loop')
    .option('--kills <n>', 'SIGKILLs', integer(1), 50)
    .option('--writers <n>', 'bulk writers', integer(1), 4)
    .option('--docs-per-request <n>', 'documents per bulk request', integer(1), 100)
    .option('--pause-ms <n>', "each writer's pause between requests", integer(0), 50)
    .option('--min-run-ms <n>', 'shortest run between restart and kill', integer(0), 200)
    .option('--max-run-ms <n>', 'longest run between restart and kill', integer(1), 3000)
    .option('--seed <n>', 'seed of the kill times', integer(0), 7)
    .parse()
    .opts<{ kills: number; writers: number; docsPerRequest: number; pauseMs: number; minRunMs: number; maxRunMs: number; seed: number }>();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-crash-loop-'));
  try {
    const report = await runCrashLoop({ repoRoot: repoRoot(), workDir, ...opts, log: (line) => process.stderr.write(`${line}\n`) });
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    if (report.lost + report.duplicated + report.unknown + report.resurrectedIndexes + report.resurrectedDocs > 0) process.exitCode = 1;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
