/**
 * The crash loop: writers on several connections send bulk requests without pause, a churn task
 * creates and deletes indexes, and a driver kills the service with SIGKILL at random moments
 * (small memtables keep WAL appends, flushes, uploads, merges, catalog commits and WAL
 * truncations going all the time) and starts it again at once. After each restart, once the
 * service is ready, every document is read back: each acknowledged one must be there exactly
 * once, nothing unacknowledged twice, and an index whose deletion was acknowledged must be gone.
 * One more writer gives its documents `_id`s, sends each request's documents again with the next
 * one (a shipper retrying after a lost answer) and deletes older ones by `_id`: a resent document
 * must still be there once, and a document whose deletion was acknowledged must stay gone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Prng } from '../corpus/index.js';
import { startServer, waitReady, type ServerHandle } from '../harness/index.js';

export interface CrashLoopOptions {
  repoRoot: string;
  workDir: string;
  kills: number;
  seed: number;
  writers: number;
  docsPerRequest: number;
  /** each writer's pause between requests (0: none); keeps the read-back after many kills short */
  pauseMs?: number;
  /** random time the service runs between a restart's first accepted bulk and the next kill */
  minRunMs: number;
  maxRunMs: number;
  /** extra settings for the service (defaults: 1 MiB memtables, so flushes never stop) */
  env?: Record<string, string>;
  log?: (line: string) => void;
}

export interface CrashLoopReport {
  kills: number;
  acknowledgedDocs: number;
  sentDocs: number;
  /** acknowledged, not found after a restart (must be 0) */
  lost: number;
  /** found more than once (must be 0) */
  duplicated: number;
  /** found although never sent (must be 0) */
  unknown: number;
  deletedIndexes: number;
  /** indexes whose deletion was acknowledged but which came back (must be 0) */
  resurrectedIndexes: number;
  /** documents with an `_id` whose deletion was acknowledged */
  deletedDocs: number;
  /** of those, found again after a restart (must be 0) */
  resurrectedDocs: number;
  /** from SIGKILL to the first accepted bulk request */
  longestRecoveryMs: number;
  medianRecoveryMs: number;
  /** from SIGKILL to readiness (the log replayed) */
  longestReadyMs: number;
  /** what each kill interrupted, as far as partial segment files on disk tell */
  killedDuring: Record<string, number>;
}

const INDEX = 'crashloop';

interface Ack {
  status: number;
}

/** Documents of the keyed writer deleted per request, oldest acknowledged first. */
const DELETES_PER_KEYED_REQUEST = 3;

export async function runCrashLoop(opts: CrashLoopOptions): Promise<CrashLoopReport> {
  const log = opts.log ?? (() => undefined);
  const prng = new Prng(opts.seed);
  const dataDir = fs.mkdtempSync(path.join(opts.workDir, 'data-'));
  const env = { SVC_MEMTABLE_MAX_BYTES: String(1024 * 1024), ...opts.env };
  let port = 0;
  let server: ServerHandle | undefined;
  const start = async (n: number): Promise<ServerHandle> => {
    const handle = await startServer({
      repoRoot: opts.repoRoot,
      dataDir,
      port,
      logFile: path.join(opts.workDir, `run-${n}.log`),
      nodeArgs: [],
      env,
      startTimeoutMs: 60_000,
    });
    port = Number(new URL(handle.url).port);
    return handle;
  };
  server = await start(0);
  const url = () => `http://127.0.0.1:${port}`;

  const acknowledged = new Set<string>();
  const sent = new Set<string>();
  const deletedAcked = new Set<string>();
  let stop = false;
  /** resolves while the service is up; replaced by a pending promise across a kill */
  let up: Promise<void> = Promise.resolve();
  let markUp: () => void = () => undefined;

  const writer = async (w: number) => {
    for (let r = 0; !stop; r++) {
      await up;
      if (stop) return;
      const lines: string[] = [];
      const markers: string[] = [];
      for (let d = 0; d < opts.docsPerRequest; d++) {
        const m = `w${w}r${r}d${d}`;
        markers.push(m);
        sent.add(m);
        lines.push(`{"index":{"_index":"${INDEX}"}}`, JSON.stringify({ _line: `writer ${w} request ${r} line ${d} user u${(d * 7919) % 500}`, m, w: `w${w}` }));
      }
      try {
        const res = await fetch(`${url()}/_bulk`, { method: 'POST', body: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
        if (res.status !== 200) {
          await res.arrayBuffer();
          continue;
        }
        const body = (await res.json()) as { items: Array<{ index: Ack }> };
        body.items.forEach((item, i) => {
          if (item.index.status === 201) acknowledged.add(markers[i]!);
        });
      } catch {
        // killed under this request: it was not acknowledged
        await new Promise((r) => setTimeout(r, 5));
      }
      if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
    }
  };

  // documents with an `_id`: deleted (acknowledged) ones must stay gone; the fate of a delete
  // whose answer was lost is unknown, so such a document is checked neither way
  const deletedDocsAcked = new Set<string>();
  const keyedLive: string[] = [];
  const keyedWriter = async () => {
    let previous: string[] = [];
    for (let r = 0; !stop; r++) {
      await up;
      if (stop) return;
      const fresh = Array.from({ length: opts.docsPerRequest }, (_, d) => `k${r}d${d}`);
      const markers = [...previous, ...fresh];
      for (const m of fresh) sent.add(m);
      const lines: string[] = [];
      for (const m of markers) lines.push(`{"index":{"_index":"${INDEX}","_id":"${m}"}}`, JSON.stringify({ _line: `keyed ${m}`, m, w: 'keyed' }));
      const doomed = keyedLive.splice(0, Math.min(DELETES_PER_KEYED_REQUEST, Math.max(0, keyedLive.length - previous.length)));
      for (const m of doomed) {
        acknowledged.delete(m);
        lines.push(`{"delete":{"_index":"${INDEX}","_id":"${m}"}}`);
      }
      try {
        const res = await fetch(`${url()}/_bulk`, { method: 'POST', body: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
        if (res.status === 200) {
          const body = (await res.json()) as { items: Array<{ index?: Ack; delete?: Ack }> };
          body.items.forEach((item, i) => {
            if (i < markers.length) {
              if (item.index!.status === 200 || item.index!.status === 201) {
                if (!acknowledged.has(markers[i]!)) keyedLive.push(markers[i]!);
                acknowledged.add(markers[i]!);
              }
            } else if (item.delete!.status === 200 || item.delete!.status === 404) {
              deletedDocsAcked.add(doomed[i - markers.length]!);
            }
          });
          previous = fresh;
        } else {
          await res.arrayBuffer();
        }
      } catch {
        await new Promise((r) => setTimeout(r, 5));
      }
      if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
    }
  };

  const churn = async () => {
    for (let n = 0; !stop; n++) {
      await up;
      if (stop) return;
      const name = `churn-${n}`;
      try {
        const res = await fetch(`${url()}/_bulk`, {
          method: 'POST',
          body: `{"index":{"_index":"${name}"}}\n{"_line":"short lived ${n}"}\n`,
          headers: { 'content-type': 'application/x-ndjson' },
        });
        await res.arrayBuffer();
        const del = await fetch(`${url()}/${name}`, { method: 'DELETE' });
        await del.arrayBuffer();
        if (del.status === 200) deletedAcked.add(name);
      } catch {
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  };

  const tasks = [...Array.from({ length: opts.writers }, (_, w) => writer(w)), keyedWriter(), churn()];
  const recoveries: number[] = [];
  const readies: number[] = [];
  const killedDuring: Record<string, number> = {};
  let lost = 0;
  let duplicated = 0;
  let unknown = 0;
  let resurrected = 0;
  let resurrectedDocs = 0;
  try {
    for (let kill = 1; kill <= opts.kills; kill++) {
      await new Promise((r) => setTimeout(r, prng.range(opts.minRunMs, opts.maxRunMs)));
      const phase = phaseOnDisk(dataDir);
      killedDuring[phase] = (killedDuring[phase] ?? 0) + 1;
      up = new Promise((r) => (markUp = r));
      const killedAt = performance.now();
      process.kill(server.pid, 'SIGKILL');
      await server.exit(30_000);
      server = await start(kill);
      markUp();
      recoveries.push(await firstAcceptedBulk(url(), killedAt));
      await waitReady(url());
      readies.push(performance.now() - killedAt);

      // the writers wait while the documents are read back, which keeps the read-back short; a
      // request still in flight is checked next time if its answer comes after the snapshot
      up = new Promise((r) => (markUp = r));
      await new Promise((r) => setTimeout(r, 100));
      const mustHave = [...acknowledged];
      const deleted = [...deletedAcked];
      const deletedDocs = [...deletedDocsAcked];
      const found = await readMarkers(url());
      for (const m of deletedDocs) if (found.has(m)) resurrectedDocs++;
      for (const m of mustHave) if (!found.has(m)) lost++;
      for (const [m, n] of found) {
        if (n > 1) duplicated++;
        if (!sent.has(m)) unknown++;
      }
      for (const name of deleted) {
        const res = await fetch(`${url()}/${name}`, { method: 'HEAD' });
        if (res.status !== 404) resurrected++;
      }
      markUp();
      log(`kill ${kill}/${opts.kills} during ${phase}: back in ${recoveries[recoveries.length - 1]!.toFixed(0)} ms, ready in ${readies[readies.length - 1]!.toFixed(0)} ms; ${mustHave.length} acknowledged, ${found.size} found, lost ${lost}, duplicated ${duplicated}, deleted by _id ${deletedDocs.length} (back: ${resurrectedDocs})`);
    }
  } finally {
    stop = true;
    markUp();
    await Promise.allSettled(tasks);
    await server.stop(60_000);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const sorted = [...recoveries].sort((a, b) => a - b);
  return {
    kills: opts.kills,
    acknowledgedDocs: acknowledged.size,
    sentDocs: sent.size,
    lost,
    duplicated,
    unknown,
    deletedIndexes: deletedAcked.size,
    resurrectedIndexes: resurrected,
    deletedDocs: deletedDocsAcked.size,
    resurrectedDocs,
    longestRecoveryMs: Math.max(...recoveries),
    medianRecoveryMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    longestReadyMs: Math.max(...readies),
    killedDuring,
  };
}

/** What the service was doing at the kill, as far as its files tell (partial segment files). */
function phaseOnDisk(dataDir: string): string {
  let tmp = 0;
  try {
    const indexes = path.join(dataDir, 'indexes');
    for (const dir of fs.readdirSync(indexes)) {
      for (const f of fs.readdirSync(path.join(indexes, dir))) if (f.endsWith('.tmp')) tmp++;
    }
  } catch {
    // an index directory removed while listed
  }
  // two files at once are a flush and a merge, or flushes of two indexes (the churn writes too)
  if (tmp >= 2) return 'two or more segment files being written';
  if (tmp === 1) return 'one segment file being written';
  return 'no segment file being written (WAL appends, commits, truncations)';
}

async function firstAcceptedBulk(url: string, since: number): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(`${url}/_bulk`, {
        method: 'POST',
        body: `{"index":{"_index":"probe"}}\n{"_line":"probe"}\n`,
        headers: { 'content-type': 'application/x-ndjson' },
      });
      const body = (await res.json()) as { errors?: boolean };
      if (res.status === 200 && body.errors === false) return performance.now() - since;
    } catch {
      // not back yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Every document's marker with how many times it is stored, read with a scroll. */
async function readMarkers(url: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  let res = await fetch(`${url}/${INDEX}/_search?scroll=1m`, {
    method: 'POST',
    body: JSON.stringify({ size: 10_000, _source: ['m'], query: { match_all: {} } }),
    headers: { 'content-type': 'application/json' },
  });
  for (;;) {
    if (res.status !== 200) throw new Error(`reading back failed with ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as { _scroll_id: string; hits: { hits: Array<{ _source: { m: string } }> } };
    if (page.hits.hits.length === 0) {
      await fetch(`${url}/_search/scroll`, { method: 'DELETE', body: JSON.stringify({ scroll_id: page._scroll_id }), headers: { 'content-type': 'application/json' } });
      return found;
    }
    for (const hit of page.hits.hits) found.set(hit._source.m, (found.get(hit._source.m) ?? 0) + 1);
    res = await fetch(`${url}/_search/scroll`, {
      method: 'POST',
      body: JSON.stringify({ scroll: '1m', scroll_id: page._scroll_id }),
      headers: { 'content-type': 'application/json' },
    });
  }
}
