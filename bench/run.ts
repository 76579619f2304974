#!/usr/bin/env node
/**
 * The benchmark: generates a seeded log corpus, starts the service on a fresh data directory,
 * bulk-loads the corpus and flushes it (timed, with the CPU of each service thread), times a
 * fixed query set, samples memory, stops the service with SIGTERM and sizes what it left on disk.
 * Prints a table with the targets and writes the figures as JSON. `--concurrency-sweep` first
 * ingests the corpus on fresh services at several concurrencies; `--self-check` checks the
 * generator alone.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { CorpusGenerator, CorpusTally, chooseQueryWords, tallyWatchFor } from './corpus/index.js';
import { CpuMeter, HttpClient, integer, jsonBody, measureDataDir, MemorySampler, processCpuSeconds, repoRoot, serverLogErrors, startServer, tail, ThreadCpuMeter, waitSettled } from './harness/index.js';
import { buildBulkBodies, compactIndex, flushIndex, ingestUntilFlushed, loadBulk, sweepConcurrency, type SweepPoint } from './ingest/index.js';
import { aggregationCases, countCases, dslCases, msearchCase, queriesUnderIngest, queryStringCases, reportedTotal, runQueryCases, type QueryCase, type UnderIngestResult } from './queries/index.js';
import { checkTargets, renderMarkdown, renderSummary, renderTable, type BenchResults } from './report/index.js';
import { monotonicMicros, profileThread, summarizeProfile, type PhaseWindow } from './profile/index.js';
import { selfCheck } from './self-check.js';

interface RunOptions {
  docs: number;
  seed: number;
  batch: number;
  concurrency: number;
  port: number;
  keep: boolean;
  queriesRepeat: number;
  warmupRounds: number;
  out?: string;
  index: string;
  serverNodeArgs: string;
  serverEnv: string[];
  profile: boolean;
  selfCheck: boolean;
  selfCheckDocs: number;
  waitFlushed: boolean;
  settleTimeout: number;
  concurrencySweep: number[];
  queriesUnderIngest: boolean;
}

/** every query case the run times; further forms of the queries are appended here */
const QUERY_CASES: readonly QueryCase[] = [...countCases, ...queryStringCases, ...dslCases, msearchCase, ...aggregationCases];

function concurrencyList(value: string): number[] {
  const levels = value.split(',').map((v) => Number(v.trim()));
  if (levels.length === 0 || levels.some((n) => !Number.isInteger(n) || n < 1)) throw new InvalidArgumentError('wants a comma-separated list of integers >= 1, e.g. 1,2,4');
  return levels;
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

function gitCommit(root: string): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

function parseEnv(pairs: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new InvalidArgumentError(`--server-env wants KEY=VALUE, got ${pair}`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

async function searchTotal(client: HttpClient, index: string): Promise<number | null> {
  const res = await client.request({ method: 'GET', path: `/${encodeURIComponent(index)}/_search?size=0&track_total_hits=true` });
  if (res.status !== 200) return null;
  return reportedTotal(jsonBody(res, 'count'))?.value ?? null;
}

/** waits until a search sees every document (the service may make writes visible lazily) */
async function waitVisible(client: HttpClient, index: string, docs: number, timeoutMs: number) {
  const started = performance.now();
  let seen: number | null = null;
  while (performance.now() - started < timeoutMs) {
    seen = await searchTotal(client, index);
    if (seen === docs) return { visibleDocs: seen, visibleAfterMs: performance.now() - started };
    await new Promise((r) => setTimeout(r, 250));
  }
  return { visibleDocs: seen, visibleAfterMs: null };
}

async function idleBaselineCores(pid: number): Promise<number> {
  const before = processCpuSeconds(pid);
  const started = performance.now();
  await new Promise((r) => setTimeout(r, 1000));
  const after = processCpuSeconds(pid);
  if (before === undefined || after === undefined) return 0;
  return (after - before) / ((performance.now() - started) / 1000);
}

async function runBenchmark(o: RunOptions): Promise<boolean> {
  const root = repoRoot();
  const startedAt = new Date();
  const loadAverageAtStart = os.loadavg();
  const phases: PhaseWindow[] = [];
  const phase = (name: string) => {
    const now = monotonicMicros();
    const open = phases[phases.length - 1];
    if (open && open.endUs === Infinity) open.endUs = now;
    if (name) phases.push({ name, startUs: now, endUs: Infinity });
  };

  log(`generating ${o.docs.toLocaleString('en')} documents (seed ${o.seed})`);
  const gen = new CorpusGenerator({ seed: o.seed, docs: o.docs });
  const words = chooseQueryWords(gen);
  const tally = new CorpusTally(tallyWatchFor(words));
  const corpus = buildBulkBodies(gen, { batchDocs: o.batch, index: o.index, observe: (g) => tally.add(g.lastLine, g.lastTs, g.lastStatus) });
  const expected = tally.counts();
  log(`corpus ready in ${(corpus.generateMs / 1000).toFixed(1)} s: ${(corpus.totalBytes / 1e6).toFixed(1)} MB in ${corpus.bodies.length} bulk bodies`);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
  const dataDir = path.join(tmp, 'data');
  const profileDir = path.join(tmp, 'profiles');
  const baseNodeArgs = o.serverNodeArgs.split(/\s+/).filter(Boolean);
  // flushing a large memtable on shutdown may take longer than the default timeout
  const serverEnv = { SVC_SHUTDOWN_TIMEOUT_SECONDS: '1800', ...parseEnv(o.serverEnv) };

  let sweep: SweepPoint[] = [];
  if (o.concurrencySweep.length > 0) {
    log(`concurrency sweep ${o.concurrencySweep.join(', ')}: ingest and flush on a fresh service each`);
    sweep = await sweepConcurrency(corpus, o.concurrencySweep, { repoRoot: root, workDir: tmp, index: o.index, nodeArgs: baseNodeArgs, env: serverEnv, log });
  }

  const nodeArgs = [...baseNodeArgs];
  if (o.profile) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
  const serverStart = performance.now();
  const server = await startServer({
    repoRoot: root,
    dataDir,
    port: o.port,
    logFile: path.join(tmp, 'server.log'),
    nodeArgs,
    env: serverEnv,
    startTimeoutMs: 60_000,
  });
  const startMs = performance.now() - serverStart;
  log(`service pid ${server.pid} listening on ${server.url} (data in ${dataDir})`);
  // what the idle service uses (a profiler's sampling threads, timers) sets the bar for "idle"
  const idleCores = await idleBaselineCores(server.pid);
  const memory = new MemorySampler(server.pid);
  memory.start(200);
  const client = new HttpClient(server.url, o.concurrency);

  let stopped: Awaited<ReturnType<typeof server.stop>> | undefined;
  let failed = false;
  try {
    phase('ingest');
    const cpu = new CpuMeter(server.pid);
    const threadCpu = new ThreadCpuMeter(server.pid);
    cpu.begin();
    threadCpu.begin();
    let nextReport = 0.1;
    const ingest = await loadBulk(client, corpus, {
      concurrency: o.concurrency,
      warmupFraction: 0.05,
      onProgress: (acked, ms) => {
        if (acked / corpus.docs < nextReport) return;
        nextReport += 0.1;
        log(`ingested ${acked.toLocaleString('en')} docs in ${(ms / 1000).toFixed(1)} s (${Math.round(acked / (ms / 1000)).toLocaleString('en')} docs/s)`);
      },
    });
    const ingestCpu = cpu.end();
    const ingestThreads = threadCpu.end();
    const rssAfterIngest = memory.sample() ?? null;
    // one count at once (is everything searchable as soon as it is acknowledged?), then the
    // flush straight away, so that the service has no idle time to flush in before it is timed
    const visibleAtOnceDocs = await searchTotal(client, o.index);

    phase('flush');
    threadCpu.begin();
    const flush = await flushIndex(client, o.index);
    const flushThreads = threadCpu.end();
    log(!flush.available ? `no flush endpoint (status ${flush.status})` : flush.error ? `flush failed: ${flush.error}` : `flushed in ${flush.ms!.toFixed(0)} ms`);
    const untilFlushed = ingestUntilFlushed(ingest, flush);
    if (untilFlushed) log(`ingest until flushed: ${Math.round(untilFlushed.docsPerSec).toLocaleString('en')} docs/s, ${untilFlushed.mbPerSec.toFixed(1)} MB/s`);

    phase('visibility');
    const visible = await waitVisible(client, o.index, corpus.docs, 120_000);
    log(`visible: ${visible.visibleDocs} docs`);

    phase('settle');
    log(o.waitFlushed ? 'waiting for the memtables to reach segment files and the service to go idle' : 'waiting for the service to go idle');
    const settle = await waitSettled({
      pid: server.pid,
      dataDir,
      waitFlushed: o.waitFlushed,
      walFlushedBytes: Math.max(1 << 20, corpus.totalBytes * 0.01),
      timeoutMs: o.settleTimeout * 1000,
      idleCores: idleCores + 0.05,
    });
    log(`${settle.settled ? 'settled' : 'not settled'} after ${(settle.waitedMs / 1000).toFixed(1)} s: ${settle.reason}`);
    const diskAfterFlush = measureDataDir(dataDir);

    phase('queries');
    cpu.begin();
    const queries = await runQueryCases(client, QUERY_CASES, { index: o.index, words, expected }, { repeats: o.queriesRepeat, warmupRounds: o.warmupRounds });
    const queriesCpu = cpu.end();
    const rssAfterQueries = memory.sample() ?? null;
    const hwm = memory.highWaterMarkBytes() ?? null;
    memory.stop();

    phase('compaction');
    const compaction = await compactIndex(client, o.index, server.pid, dataDir, corpus.documentBytes, idleCores + 0.05);
    log(`compacted into one segment in ${(compaction.ms / 1000).toFixed(1)} s: data directory ${(compaction.totalPerRawByte * 100).toFixed(1)} % of raw`);

    let underIngest: UnderIngestResult | undefined;
    if (o.queriesUnderIngest) {
      phase('queries-under-ingest');
      const loadIndex = `${o.index}-under-ingest`;
      log(`timing the queries while the corpus goes into ${loadIndex}`);
      underIngest = await queriesUnderIngest(server.url, corpus, QUERY_CASES, { index: o.index, words, expected }, { concurrency: o.concurrency, loadIndex });
      log(`${underIngest.queries[0]?.samples ?? 0} rounds of queries during ${(underIngest.ingest.whole.elapsedMs / 1000).toFixed(1)} s of ingest (${Math.round(underIngest.ingest.whole.docsPerSec).toLocaleString('en')} docs/s)`);
    }

    phase('shutdown');
    client.close();
    stopped = await server.stop(1_900_000);
    phase('');
    log(`service stopped in ${(stopped.stopMs / 1000).toFixed(1)} s (code ${stopped.code}, signal ${stopped.signal})`);

    const disk = measureDataDir(dataDir);
    const logged = serverLogErrors(path.join(tmp, 'server.log'));
    const raw = corpus.documentBytes;
    const peaks = [hwm, memory.peakSampledBytes ?? null].filter((v): v is number => v !== null);
    const measured: Omit<BenchResults, 'targets'> = {
      startedAt: startedAt.toISOString(),
      environment: {
        node: process.version,
        platform: `${os.platform()} ${os.release()}`,
        cpus: os.availableParallelism(),
        cpuModel: os.cpus()[0]?.model ?? 'unknown',
        totalMemoryBytes: os.totalmem(),
        gitCommit: gitCommit(root),
        loadAverageAtStart,
      },
      options: { ...o },
      corpus: {
        docs: corpus.docs,
        seed: o.seed,
        batches: corpus.bodies.length,
        documentBytes: corpus.documentBytes,
        totalBytes: corpus.totalBytes,
        avgDocumentLineBytes: corpus.documentBytes / corpus.docs,
        generateMs: corpus.generateMs,
        queryWords: words,
        expected,
      },
      server: {
        startMs, stopMs: stopped.stopMs, exitCode: stopped.code, signal: stopped.signal, killed: stopped.killed,
        loggedErrors: logged.count, firstLoggedError: logged.first,
      },
      ingest: { ...ingest, untilFlushed, visibleAtOnceDocs, ...visible, cpu: ingestCpu, threads: ingestThreads },
      sweep,
      queriesCpu,
      flush,
      flushThreads,
      settle,
      queries,
      ...(underIngest ? { underIngest } : {}),
      memory: {
        peakRssBytes: peaks.length ? Math.max(...peaks) : null,
        highWaterMarkBytes: hwm,
        peakSampledRssBytes: memory.peakSampledBytes ?? null,
        rssAfterIngestBytes: rssAfterIngest,
        rssAfterQueriesBytes: rssAfterQueries,
        timeline: memory.timeline,
      },
      diskAfterFlush: { ...diskAfterFlush, totalPerRawByte: diskAfterFlush.totalBytes / raw },
      compaction,
      disk: { ...disk, totalPerRawByte: disk.totalBytes / raw, segmentsPerRawByte: disk.segmentBytes / raw, walPerRawByte: disk.walBytes / raw },
    };
    const results: BenchResults = { ...measured, targets: checkTargets(measured) };

    const outFile = o.out ?? path.join(root, 'bench', 'results', `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(outFile), { recursive: true });
    if (o.profile) results.profiles = keepProfiles(profileDir, outFile, phases);
    fs.writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
    const markdownFile = outFile.replace(/\.json$/, '') + '.md';
    fs.writeFileSync(markdownFile, renderMarkdown(results));

    process.stdout.write(`\n${renderSummary(results)}\n\nresults: ${outFile} (and ${path.basename(markdownFile)})\n`);
    const underIngestOk = !underIngest || (underIngest.queries.every((q) => !q.problem) && underIngest.ingest.failedItems === 0);
    return queries.every((q) => !q.problem) && ingest.failedItems === 0 && underIngestOk;
  } catch (err) {
    failed = true;
    // a dropped connection usually arrives a moment before the exit of a crashed process
    const exit = stopped ? undefined : await server.exit(2000);
    if (exit) {
      log(`the service exited unexpectedly (code ${exit.code}, signal ${exit.signal}); last lines of its log:\n${tail(path.join(tmp, 'server.log'))}`);
    }
    throw err;
  } finally {
    client.close();
    memory.stop();
    if (!stopped && server.running()) await server.stop(60_000);
    if (o.keep || failed) log(`kept ${tmp} (data dir and server.log)`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** copies the profiles beside the results file and prints where the service spent its time */
function keepProfiles(profileDir: string, outFile: string, phases: readonly PhaseWindow[]): string[] {
  if (!fs.existsSync(profileDir)) return [];
  const kept: string[] = [];
  const names = fs.readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')).sort();
  for (const name of names) {
    const thread = profileThread(name);
    const dest = `${outFile.replace(/\.json$/, '')}.${thread.replace(/ /g, '-')}.cpuprofile`;
    fs.copyFileSync(path.join(profileDir, name), dest);
    kept.push(dest);
    const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
    for (const s of summarizeProfile(dest, phases, 15)) {
      // a phase in which the thread hardly ran says nothing about where time goes
      if (s.busyMs < 50) continue;
      process.stdout.write(`\nprofile of the ${thread}, ${s.phase}: busy ${(s.busyMs / 1000).toFixed(1)} s of ${(s.totalMs / 1000).toFixed(1)} s\n`);
      process.stdout.write(renderTable(['self time by file', 'ms', 'share'], s.files.slice(0, 10).map((f) => [f.key, f.ms.toFixed(0), pct(f.share)]), new Set([1, 2])) + '\n\n');
      process.stdout.write(renderTable(['self time by function', 'ms', 'share'], s.functions.map((f) => [f.key, f.ms.toFixed(0), pct(f.share)]), new Set([1, 2])) + '\n');
    }
  }
  return kept;
}

const program = new Command('bench')
  .description('benchmark the service: ingest throughput, query latency, memory and bytes on disk')
  .option('--docs <n>', 'documents in the corpus', integer(1), 1_000_000)
  .option('--seed <n>', 'corpus seed', integer(0), 42)
  .option('--batch <n>', 'documents per _bulk request', integer(1), 5000)
  .option('--concurrency <n>', '_bulk requests in flight', integer(1), 4)
  .option('--port <n>', 'port for the service (0: any free port)', integer(0), 0)
  .option('--keep', 'keep the temporary data directory and server log', false)
  .option('--queries-repeat <n>', 'timed repeats of each query', integer(1), 30)
  .option('--warmup-rounds <n>', 'untimed rounds over all queries first', integer(0), 3)
  .option('--out <file>', 'results file (default bench/results/<timestamp>.json)')
  .option('--index <name>', 'index to load', 'bench-logs')
  .option('--server-node-args <args>', 'extra node flags for the service, space-separated', '')
  .option('--server-env <KEY=VALUE...>', 'extra environment for the service (e.g. SVC_MEMTABLE_MAX_BYTES=...)', [])
  .option('--no-wait-flushed', 'time queries as soon as the service is idle, without waiting for memtables to be flushed')
  .option('--settle-timeout <seconds>', 'longest wait for the service to settle before the queries', integer(0), 180)
  .option('--profile', 'run the service with --cpu-prof and print where its time goes', false)
  .option('--concurrency-sweep <list>', 'before the main run, ingest and flush the corpus on a fresh service at each of these concurrencies (e.g. 1,2,4)', concurrencyList, [])
  .option('--queries-under-ingest', 'after the queries, time them again while the corpus is sent into a second index (p99 under ingest; the disk figures then include that index)', false)
  .option('--self-check', 'check the corpus generator only, without a service', false)
  .option('--self-check-docs <n>', 'documents the self-check generates', integer(100), 20_000);

program.parse(process.argv);
const options = program.opts<RunOptions>();
const run = options.selfCheck ? Promise.resolve(selfCheck(options.selfCheckDocs, options.seed)) : runBenchmark(options);
run.then(
  (ok) => process.exit(ok ? 0 : 1),
  (err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
