#!/usr/bin/env node
/**
 * Back in service after a crash: for each amount of unflushed write-ahead log, loads the
 * benchmark corpus over HTTP, kills the service with SIGKILL, starts it again at once (as a
 * supervisor would) and times, from the kill, the first answer of the liveness endpoint, the
 * first successful search, the first accepted bulk request and readiness. Then checks that every
 * acknowledged document is found.
 *
 *   npm run build && node dist/bench/restart.js                 # 0 MB, 100 MB, the largest allowed
 *   node dist/bench/restart.js --wal-mb 0,25,100 --runs 3
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { CorpusGenerator } from './corpus/index.js';
import { HttpClient, integer, measureDataDir, median, repoRoot, startServer, type ServerHandle } from './harness/index.js';
import { buildBulkBodies, type BulkBodies } from './ingest/index.js';
import { renderTable } from './report/index.js';

const MB = 1_000_000;
const INDEX = 'restart-bench';
/** bulk requests in flight while loading, as in the ingest benchmark */
const CONCURRENCY = 4;
const BATCH_DOCS = 2_000;
/** NDJSON bytes of an average corpus document, to size the corpus for a scenario */
const DOC_BYTES_ESTIMATE = 242;

interface Options {
  walMb: Array<number | 'max'>;
  runs: number;
  seed: number;
  keep: boolean;
  /** write a CPU profile of each restarted service into this directory */
  profile?: string;
}

interface Scenario {
  label: string;
  /** document bytes to send before the kill */
  loadBytes: number;
  /** flush before the kill: nothing left to replay */
  flushFirst: boolean;
  env: Record<string, string>;
}

interface RunResult {
  scenario: string;
  walBytesAtKill: number;
  ackedDocs: number;
  liveMs: number;
  searchMs: number;
  bulkMs: number;
  readyMs: number;
  replayMs: number | null;
  replayedDocs: number | null;
  foundDocs: number;
}

function parseWalList(value: string): Array<number | 'max'> {
  return value.split(',').map((part) => {
    if (part === 'max') return 'max';
    const n = Number(part);
    if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('wants a comma-separated list of megabytes or "max", e.g. 0,100,max');
    return n;
  });
}

/** The default cap on unflushed log bytes, read from the service's own settings schema. */
async function defaultWalCap(): Promise<number> {
  const { loadConfig } = await import('../src/config/index.js');
  return loadConfig({}, {}).walMaxUnflushedBytes;
}

async function scenarios(opts: Options): Promise<Scenario[]> {
  const cap = await defaultWalCap();
  // memtables never fill by size or age during the load: only the log cap makes a flush
  const quiet = { SVC_MEMTABLE_MAX_BYTES: String(8 * 1024 ** 3), SVC_MEMTABLE_MAX_AGE_SECONDS: '86400' };
  return opts.walMb.map((mb) => {
    if (mb === 0) return { label: '0 MB (flushed)', loadBytes: 100 * MB, flushFirst: true, env: {} };
    const bytes = mb === 'max' ? cap : mb * MB;
    // the early flush starts at 3/4 of the cap: a scenario near or past that raises the cap for the
    // run, so that the kill finds all of it unflushed (the largest allowed is the cap itself)
    const env = bytes >= cap * 0.7 ? { ...quiet, SVC_WAL_MAX_UNFLUSHED_BYTES: String(Math.ceil(bytes * 1.5)) } : quiet;
    return { label: mb === 'max' ? `largest allowed (${(cap / MB).toFixed(0)} MB)` : `${mb} MB`, loadBytes: bytes, flushFirst: false, env };
  });
}

function corpusFor(bytes: number, seed: number): BulkBodies {
  const docs = Math.max(BATCH_DOCS, Math.ceil(bytes / DOC_BYTES_ESTIMATE));
  const gen = new CorpusGenerator({ seed, docs });
  return buildBulkBodies(gen, { batchDocs: BATCH_DOCS, index: INDEX });
}

/** Sends bodies with CONCURRENCY in flight until `bytes` of documents are acknowledged. */
async function load(client: HttpClient, corpus: BulkBodies, bytes: number): Promise<number> {
  let next = 0;
  let ackedDocs = 0;
  let ackedBytes = 0;
  const perDoc = corpus.documentBytes / corpus.docs;
  const worker = async () => {
    while (next < corpus.bodies.length && ackedBytes < bytes) {
      const i = next++;
      for (;;) {
        const res = await client.request({ method: 'POST', path: '/_bulk', body: corpus.bodies[i]!, contentType: 'application/x-ndjson' });
        if (res.status === 429) {
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        if (res.status !== 200 || !res.body.subarray(0, 64).toString('latin1').includes('"errors":false')) {
          throw new Error(`bulk failed with ${res.status}: ${res.body.subarray(0, 300).toString()}`);
        }
        break;
      }
      ackedDocs += corpus.docCounts[i]!;
      ackedBytes += corpus.docCounts[i]! * perDoc;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return ackedDocs;
}

/** Milliseconds from `since` until `probe` first succeeds (tried again every 5 ms). */
async function firstSuccess(since: number, probe: () => Promise<boolean>, deadlineMs = 120_000): Promise<number> {
  for (;;) {
    try {
      if (await probe()) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (performance.now() - since > deadlineMs) throw new Error('the service did not come back in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function ok(url: string, init?: RequestInit): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
}

function replayLog(logFile: string): { ms: number; replayed: number } | null {
  for (const line of fs.readFileSync(logFile, 'utf8').split('\n').reverse()) {
    if (!line.includes('write-ahead log replayed')) continue;
    const entry = JSON.parse(line) as { ms: number; replayed: number };
    return { ms: entry.ms, replayed: entry.replayed };
  }
  return null;
}

async function runOnce(repoRoot: string, scenario: Scenario, corpus: BulkBodies, workDir: string, profileDir?: string): Promise<RunResult> {
  const dataDir = fs.mkdtempSync(path.join(workDir, 'data-'));
  const server = (port: number, logFile: string, nodeArgs: string[] = []): Promise<ServerHandle> =>
    startServer({ repoRoot, dataDir, port, logFile, nodeArgs, env: { SVC_LOG_LEVEL: 'info', ...scenario.env }, startTimeoutMs: 60_000 });
  const first = await server(0, path.join(workDir, 'before-kill.log'));
  const url = first.url;
  const client = new HttpClient(url, CONCURRENCY);
  const ackedDocs = await load(client, corpus, scenario.loadBytes);
  if (scenario.flushFirst) await client.request({ method: 'POST', path: `/${INDEX}/_flush` });
  const walBytesAtKill = measureDataDir(dataDir).walBytes;

  const killedAt = performance.now();
  process.kill(first.pid, 'SIGKILL');
  await first.exit(30_000);
  const logFile = path.join(workDir, 'after-kill.log');
  const port = new URL(url).port;
  const restarted = server(Number(port), logFile, profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)] : []);
  const probeBulk = `{"index":{"_index":"${INDEX}"}}\n{"_line":"restart probe","level":"info"}\n`;
  const [liveMs, searchMs, bulkMs, readyMs] = await Promise.all([
    firstSuccess(killedAt, async () => (await ok(`${url}/health/livez`)).ok),
    firstSuccess(killedAt, async () => (await ok(`${url}/${INDEX}/_count`)).ok),
    firstSuccess(killedAt, async () => {
      const res = await ok(`${url}/_bulk`, { method: 'POST', body: probeBulk, headers: { 'content-type': 'application/x-ndjson' } });
      return res.ok && ((await res.json()) as { errors: boolean }).errors === false;
    }),
    firstSuccess(killedAt, async () => (await ok(`${url}/health/readyz`)).ok),
  ]);
  const handle = await restarted;
  const count = (await (await ok(`${url}/${INDEX}/_count`)).json()) as { count: number };
  await handle.stop(60_000);
  const replay = replayLog(logFile);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return {
    scenario: scenario.label,
    walBytesAtKill,
    ackedDocs,
    liveMs,
    searchMs,
    bulkMs,
    readyMs,
    replayMs: replay?.ms ?? null,
    replayedDocs: replay?.replayed ?? null,
    foundDocs: count.count - 1,
  };
}

async function main(): Promise<void> {
  const program = new Command('restart')
    .option('--wal-mb <list>', 'unflushed log before each kill, in MB ("max" = the default cap)', parseWalList, ['0', '100', 'max'].map((v) => (v === 'max' ? 'max' : Number(v))) as Array<number | 'max'>)
    .option('--runs <n>', 'kills per scenario', integer(1), 3)
    .option('--seed <n>', 'corpus seed', integer(0), 42)
    .option('--keep', 'keep the work directory', false)
    .option('--profile <dir>', 'write a CPU profile of each restarted service into <dir>')
    .parse();
  const opts = program.opts<Options>();
  const root = repoRoot();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-restart-bench-'));
  const results: RunResult[] = [];
  try {
    for (const scenario of await scenarios(opts)) {
      const corpus = corpusFor(scenario.loadBytes * 1.1, opts.seed);
      for (let run = 0; run < opts.runs; run++) {
        const result = await runOnce(root, scenario, corpus, workDir, opts.profile);
        results.push(result);
        process.stderr.write(`${JSON.stringify(result)}\n`);
        if (result.foundDocs !== result.ackedDocs) throw new Error(`${result.scenario}: ${result.ackedDocs} acknowledged, ${result.foundDocs} found`);
      }
    }
  } finally {
    if (!opts.keep) fs.rmSync(workDir, { recursive: true, force: true });
  }
  const byScenario = new Map<string, RunResult[]>();
  for (const r of results) byScenario.set(r.scenario, [...(byScenario.get(r.scenario) ?? []), r]);
  const rows = [...byScenario].map(([label, rs]) => [
    label,
    (median(rs.map((r) => r.walBytesAtKill)) / MB).toFixed(1),
    String(median(rs.map((r) => r.replayedDocs ?? 0))),
    ...(['liveMs', 'searchMs', 'bulkMs', 'readyMs'] as const).map((k) => `${median(rs.map((r) => r[k])).toFixed(0)} (max ${Math.max(...rs.map((r) => r[k])).toFixed(0)})`),
    `${median(rs.map((r) => r.replayMs ?? 0)).toFixed(0)}`,
    rs.every((r) => r.foundDocs === r.ackedDocs) ? 'all' : 'LOST',
  ]);
  const table = renderTable(['unflushed log', 'WAL on disk MB', 'replayed docs', 'liveness ms', 'first search ms', 'first bulk ms', 'ready ms', 'replay ms', 'acknowledged found'], rows);
  process.stdout.write(`\nTime from SIGKILL, median of ${opts.runs} (max), ${os.cpus().length} cores:\n\n${table}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
