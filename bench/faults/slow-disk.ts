/**
 * Slow disk: the data directory on a filesystem of its own whose device is throttled for the
 * service's process (see slow-device.ts), in three phases: normal, slow, and normal again once
 * the throttle is lifted. Writers ingest all along, a searcher counts and searches, a prober
 * asks for liveness. While the disk is slow, writes may take longer or be refused with 429 (the
 * write budget: SVC_WAL_MAX_UNFLUSHED_BYTES, SVC_STORAGE_MAX_PENDING_BYTES), but never get a
 * 5xx nor wait past the client's timeout; searches and liveness keep answering; every
 * acknowledged document is counted, before and after a restart.
 */
import path from 'node:path';
import { median, percentile, startServer, waitReady } from '../harness/index.js';
import { makeSlowDevice, type IoLimits } from './slow-device.js';

export interface SlowDiskOptions {
  repoRoot: string;
  workDir: string;
  /** size of the throttled filesystem */
  deviceBytes: number;
  limits: IoLimits;
  normalMs: number;
  slowMs: number;
  recoveredMs: number;
  writers: number;
  docsPerBulk: number;
  /** how long a client waits for an answer before it gives up (a hang) */
  clientTimeoutMs: number;
  memtableMaxBytes: number;
  walMaxUnflushedBytes: number;
  log?: (line: string) => void;
}

export type PhaseName = 'normal' | 'slow' | 'recovered';

export interface PhaseFigures {
  bulks: number;
  /** bulk requests answered 200 */
  accepted: number;
  /** bulk requests answered 429, by error type */
  refused: Record<string, number>;
  bulkLatencyMs: { median: number; p99: number; max: number };
  searches: number;
  longestSearchMs: number;
  probes: number;
  longestProbeMs: number;
}

export interface SlowDiskReport {
  mechanism: string;
  device: string;
  limits: IoLimits;
  phases: Record<PhaseName, PhaseFigures>;
  /** answers that are neither a success nor a 429, and requests that failed or timed out */
  unexpected: string[];
  /** documents acknowledged (status 201 in a bulk answered 200) */
  acknowledged: number;
  countBeforeRestart: number;
  countAfterRestart: number;
  /** each writer's last bulk answer, in the recovered phase */
  lastStatuses: number[];
  /** bytes the service wrote to the device through the throttle group */
  throttledWriteBytes: number;
}

const INDEX = 'slow';

interface Timings {
  bulkLatencies: number[];
  figures: PhaseFigures;
}

function emptyPhase(): Timings {
  return {
    bulkLatencies: [],
    figures: { bulks: 0, accepted: 0, refused: {}, bulkLatencyMs: { median: 0, p99: 0, max: 0 }, searches: 0, longestSearchMs: 0, probes: 0, longestProbeMs: 0 },
  };
}

/** Runs the three phases; answers why not when the machine cannot make a throttled device. */
export async function runSlowDisk(opts: SlowDiskOptions): Promise<SlowDiskReport | string> {
  const log = opts.log ?? (() => undefined);
  const device = makeSlowDevice(opts.workDir, opts.deviceBytes);
  if (typeof device === 'string') return device;
  let stopServer: (() => Promise<unknown>) | undefined;
  try {
    const dataDir = path.join(device.mountPoint, 'data');
    const env = { SVC_MEMTABLE_MAX_BYTES: String(opts.memtableMaxBytes), SVC_WAL_MAX_UNFLUSHED_BYTES: String(opts.walMaxUnflushedBytes) };
    const start = (name: string) =>
      startServer({ repoRoot: opts.repoRoot, dataDir, port: 0, logFile: path.join(opts.workDir, `${name}.log`), nodeArgs: [], env, startTimeoutMs: 60_000 });
    const server = await start('slow-disk');
    stopServer = () => server.stop(60_000);
    log(`service ${server.pid} on ${device.device} (${device.majorMinor}), throttled with ${device.mechanism}`);

    const phases: Record<PhaseName, Timings> = { normal: emptyPhase(), slow: emptyPhase(), recovered: emptyPhase() };
    let phase: PhaseName = 'normal';
    let running = true;
    let acknowledged = 0;
    const unexpected: string[] = [];
    const lastStatuses: number[] = new Array<number>(opts.writers).fill(0);
    const note = (what: string) => {
      if (unexpected.length < 50) unexpected.push(`${phase}: ${what}`);
    };
    const timed = async (url: string, init: RequestInit = {}): Promise<{ status: number; text: string; ms: number } | undefined> => {
      const sent = performance.now();
      try {
        const res = await fetch(url, { ...init, signal: AbortSignal.timeout(opts.clientTimeoutMs) });
        const text = await res.text();
        return { status: res.status, text, ms: performance.now() - sent };
      } catch (err) {
        note(`${init.method ?? 'GET'} ${new URL(url).pathname} failed after ${Math.round(performance.now() - sent)} ms: ${(err as Error).message}`);
        return undefined;
      }
    };

    const writer = async (w: number) => {
      for (let r = 0; running; r++) {
        const lines: string[] = [];
        for (let d = 0; d < opts.docsPerBulk; d++) {
          lines.push(`{"index":{"_index":"${INDEX}"}}`, JSON.stringify({ _line: `GET /api/orders/${w}-${r}-${d} took ${(d * 37) % 1000} ms from 10.0.${w}.${d % 250}`, writer: w, n: d }));
        }
        const at = phase;
        const answer = await timed(`${server.url}/_bulk`, { method: 'POST', body: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
        if (!answer) continue;
        const p = phases[at];
        p.figures.bulks++;
        p.bulkLatencies.push(answer.ms);
        lastStatuses[w] = answer.status;
        if (answer.status === 200) {
          p.figures.accepted++;
          const { items } = JSON.parse(answer.text) as { items: Array<{ index: { status: number } }> };
          for (const item of items) if (item.index.status === 201) acknowledged++;
        } else if (answer.status === 429) {
          const type = (JSON.parse(answer.text) as { error?: { type?: string } }).error?.type ?? 'unknown';
          p.figures.refused[type] = (p.figures.refused[type] ?? 0) + 1;
          await new Promise((r) => setTimeout(r, 200));
        } else note(`bulk -> ${answer.status} ${answer.text.slice(0, 300)}`);
      }
    };
    const searcher = async () => {
      for (let i = 0; running; i++) {
        const at = phase;
        const url = i % 2 === 0 ? `${server.url}/${INDEX}/_count` : `${server.url}/${INDEX}/_search?q=orders&size=10&sort=n:desc`;
        const answer = await timed(url);
        if (answer) {
          phases[at].figures.searches++;
          phases[at].figures.longestSearchMs = Math.max(phases[at].figures.longestSearchMs, Math.round(answer.ms));
          if (answer.status !== 200) note(`search -> ${answer.status} ${answer.text.slice(0, 300)}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const prober = async () => {
      while (running) {
        const at = phase;
        const answer = await timed(`${server.url}/health/livez`);
        if (answer) {
          phases[at].figures.probes++;
          phases[at].figures.longestProbeMs = Math.max(phases[at].figures.longestProbeMs, Math.round(answer.ms));
          if (answer.status !== 200) note(`liveness -> ${answer.status}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const schedule = async () => {
      await sleep(opts.normalMs);
      device.throttle(server.pid, opts.limits);
      phase = 'slow';
      log(`throttled: ${JSON.stringify(opts.limits)}`);
      await sleep(opts.slowMs);
      device.lift();
      phase = 'recovered';
      log('throttle lifted');
      await sleep(opts.recoveredMs);
      running = false;
    };
    // the index exists before the searcher asks for it
    const first = await timed(`${server.url}/_bulk`, { method: 'POST', body: `{"index":{"_index":"${INDEX}"}}\n{"_line":"first","writer":-1,"n":0}\n`, headers: { 'content-type': 'application/x-ndjson' } });
    if (first?.status !== 200) throw new Error(`the first write was not taken: ${first?.status} ${first?.text}`);
    acknowledged++;
    const loops = [...Array.from({ length: opts.writers }, (_, w) => writer(w)), searcher(), prober()];
    await Promise.all([schedule(), ...loops]);

    const countNow = async (url: string) => ((await (await fetch(`${url}/${INDEX}/_count`)).json()) as { count: number }).count;
    const countBeforeRestart = await countNow(server.url);
    const throttledWriteBytes = device.groupWriteBytes();
    const stopped = await server.stop(60_000);
    stopServer = undefined;
    if (stopped.killed) note('the service did not stop within 60 s of SIGTERM');

    const again = await start('slow-disk-restart');
    stopServer = () => again.stop(60_000);
    await waitReady(again.url);
    const countAfterRestart = await countNow(again.url);
    await again.stop(60_000);
    stopServer = undefined;

    const done = (t: Timings): PhaseFigures => ({
      ...t.figures,
      bulkLatencyMs: { median: Math.round(median(t.bulkLatencies)), p99: Math.round(percentile(t.bulkLatencies, 99)), max: Math.round(Math.max(0, ...t.bulkLatencies)) },
    });
    const report: SlowDiskReport = {
      mechanism: device.mechanism,
      device: `${device.device} (${device.majorMinor})`,
      limits: opts.limits,
      phases: { normal: done(phases.normal), slow: done(phases.slow), recovered: done(phases.recovered) },
      unexpected,
      acknowledged,
      countBeforeRestart,
      countAfterRestart,
      lastStatuses,
      throttledWriteBytes,
    };
    log(JSON.stringify(report));
    return report;
  } finally {
    try {
      // a SIGTERM flushes: at full speed
      device.lift();
    } catch (err) {
      log(`lifting the throttle failed: ${(err as Error).message}`);
    }
    await stopServer?.().catch(() => undefined);
    for (const problem of device.release()) log(`cleanup: ${problem}`);
  }
}
