/**
 * Ingest at several concurrencies before the main run: for each, a fresh service on a fresh
 * data directory takes the whole corpus and a `_flush`, and is stopped. What it reports per
 * concurrency is the ingest figures only (no queries), to show where throughput stops growing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CpuMeter, HttpClient, ThreadCpuMeter, startServer, tail, type PhaseCpu, type PhaseThreadCpu } from '../harness/index.js';
import { loadBulk, type Throughput } from './bulk-loader.js';
import type { BulkBodies } from './bulk-bodies.js';
import { flushIndex, ingestUntilFlushed, type FlushResult } from './flush-index.js';

export interface SweepOptions {
  repoRoot: string;
  /** a directory the sweep may fill; each run gets its own subdirectory, removed afterwards */
  workDir: string;
  index: string;
  nodeArgs: readonly string[];
  env: Readonly<Record<string, string>>;
  log(message: string): void;
}

export interface SweepPoint {
  concurrency: number;
  whole: Throughput;
  untilFlushed: Throughput | null;
  flush: FlushResult;
  failedItems: number;
  retries: number;
  cpu: PhaseCpu;
  threads: PhaseThreadCpu;
}

export async function sweepConcurrency(corpus: BulkBodies, levels: readonly number[], o: SweepOptions): Promise<SweepPoint[]> {
  const points: SweepPoint[] = [];
  for (const concurrency of levels) {
    const dir = path.join(o.workDir, `sweep-c${concurrency}`);
    fs.mkdirSync(dir, { recursive: true });
    const logFile = path.join(dir, 'server.log');
    const server = await startServer({
      repoRoot: o.repoRoot,
      dataDir: path.join(dir, 'data'),
      port: 0,
      logFile,
      nodeArgs: o.nodeArgs,
      env: o.env,
      startTimeoutMs: 60_000,
    });
    const client = new HttpClient(server.url, concurrency);
    try {
      const cpu = new CpuMeter(server.pid);
      const threads = new ThreadCpuMeter(server.pid);
      cpu.begin();
      threads.begin();
      const ingest = await loadBulk(client, corpus, { concurrency, warmupFraction: 0.05 });
      const flush = await flushIndex(client, o.index);
      const point: SweepPoint = {
        concurrency,
        whole: ingest.whole,
        untilFlushed: ingestUntilFlushed(ingest, flush),
        flush,
        failedItems: ingest.failedItems,
        retries: ingest.retries,
        threads: threads.end(),
        cpu: cpu.end(),
      };
      points.push(point);
      const rate = point.untilFlushed ?? point.whole;
      o.log(`sweep, concurrency ${concurrency}: ${Math.round(rate.docsPerSec).toLocaleString('en')} docs/s, ${rate.mbPerSec.toFixed(1)} MB/s ${point.untilFlushed ? 'until flushed' : 'ingest only (no flush)'}`);
    } catch (err) {
      const exit = await server.exit(2000);
      if (exit) o.log(`the service of the sweep run at concurrency ${concurrency} exited (code ${exit.code}, signal ${exit.signal}):\n${tail(logFile)}`);
      throw err;
    } finally {
      client.close();
      if (server.running()) await server.stop(600_000);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return points;
}
