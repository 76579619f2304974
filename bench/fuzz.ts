#!/usr/bin/env node
/**
 * The long fuzz run: many generated requests of each kind against a service started as a child
 * process; prints the inputs tried and the answers by status class, and the first ill-formed
 * answer (smallest request found) when there is one.
 *
 *   npm run build && node dist/bench/fuzz.js --runs 5000
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { FUZZ_KINDS, fuzz, seedFuzzIndex, type FuzzRun } from './faults/index.js';
import { integer, repoRoot, startServer } from './harness/index.js';

async function main(): Promise<void> {
  const opts = new Command('fuzz')
    .option('--runs <n>', 'inputs per kind', integer(1), 5000)
    .option('--seed <n>', 'fast-check seed', integer(0), 20261125)
    .parse()
    .opts<{ runs: number; seed: number }>();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-fuzz-'));
  const server = await startServer({ repoRoot: repoRoot(), dataDir: path.join(workDir, 'data'), port: 0, logFile: path.join(workDir, 'service.log'), nodeArgs: [], env: {}, startTimeoutMs: 60_000 });
  const runs: FuzzRun[] = [];
  let failed = false;
  try {
    await seedFuzzIndex(server.url);
    for (const kind of FUZZ_KINDS) {
      const started = performance.now();
      try {
        const run = await fuzz(server.url, kind, opts.runs, opts.seed);
        runs.push(run);
        process.stderr.write(`${kind}: ${run.inputs} inputs in ${((performance.now() - started) / 1000).toFixed(1)} s, ${JSON.stringify(run.statuses)}\n`);
      } catch (err) {
        failed = true;
        process.stderr.write(`${kind}: FAILED\n${err instanceof Error ? err.message : String(err)}\n`);
      }
      if (!server.running()) throw new Error(`the service died during the ${kind} run`);
    }
  } finally {
    await server.stop(30_000);
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify({ seed: opts.seed, runs }, null, 2)}\n`);
  if (failed) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
