/**
 * Overload: bulk writers at full speed while many clients send expensive searches and
 * aggregations at once (terms over a high-cardinality field, fine histograms with sub-
 * aggregations, leading wildcards, deep pages), and a prober asks for liveness all along. The
 * service must answer 429 (or the documented 504 of a query timeout) rather than die, stay
 * within its memory budgets, and keep answering liveness. Two kinds of 429 are expected of
 * searches: a full search queue (es_rejected_execution_exception, SVC_QUERY_QUEUE_SIZE) and an
 * aggregation over its memory budget (circuit_breaking_exception); a client that gets one
 * waits a little before its next search, as clients retrying a 429 should.
 */
import path from 'node:path';
import { MemorySampler, median, percentile, startServer } from '../harness/index.js';

export interface OverloadOptions {
  repoRoot: string;
  workDir: string;
  durationMs: number;
  searchClients: number;
  writers: number;
  /**
   * bulk requests of 1,000 documents each writer sends at most (unbounded when not given): the
   * process's memory grows with what is ingested, not only with the budgets
   */
  bulksPerWriter?: number;
  /** bulk requests of 1,000 documents sent before the searches start (5 when not given) */
  initialBulks?: number;
  /** the budgets the service runs with (bytes) */
  aggregationMemoryBytes: number;
  memtableMaxBytes: number;
  walMaxUnflushedBytes: number;
  /** SVC_READER_CACHE_BYTES: what segment readers keep decoded, all threads together */
  readerCacheBytes: number;
  /** SVC_IN_FLIGHT_REQUESTS_BYTES: request bodies and answers held at once; the service's default when not given */
  inFlightRequestsBytes?: number;
  /** SVC_QUERY_QUEUE_SIZE; the service's default when not given */
  queryQueueSize?: number;
  /** how long a search client waits after a 429 */
  backoffMs?: number;
  /** SVC_MEMORY_LIMIT_BYTES: resident memory above which requests with a body get 429; none when not given */
  memoryLimitBytes?: number;
  /** extra node flags for the service (V8 heap settings, say) */
  nodeArgs?: readonly string[];
  log?: (line: string) => void;
}

export interface OverloadReport {
  durationMs: number;
  searches: number;
  bulks: number;
  /** answers by status over all requests */
  statuses: Record<string, number>;
  /** answers that are neither a success, a 429, a 504 nor a 400 too_many_buckets_exception */
  unexpected: string[];
  /** searches answered 200 */
  searchesAnswered: number;
  /** searches answered 429 because the search queue was full (es_rejected_execution_exception) */
  searchesRejected: number;
  /** searches answered 429 because their aggregations would pass the memory budget */
  searchesOverBudget: number;
  /** searches answered 400 because their aggregations would make more than SVC_MAX_BUCKETS buckets */
  searchesTooManyBuckets: number;
  /** documents of bulk requests answered 200 with status 201 */
  documentsAcknowledged: number;
  /** bulk requests answered 429 (the write budget) */
  bulksRefused: number;
  /** time from sending a bulk request to its answer */
  bulkLatencyMs: { median: number; p99: number; max: number };
  livenessProbes: number;
  livenessFailures: number;
  longestLivenessMs: number;
  peakRssBytes: number;
  /** the most request bodies and answers held at once (svc_in_flight_requests_bytes, sampled) */
  peakInFlightBytes: number;
  /** the main thread's V8 heap and array buffers at most (svc_jemalloc_resident_bytes, sampled) */
  peakMainHeapBytes: number;
  aggregationMemoryBytes: number;
  readerCacheBytes: number;
  /**
   * what the budgets let the service hold in memory: aggregations, the memtable taking writes
   * with one being flushed (the log's cap bounds the same documents, so it is not added again),
   * what segment readers keep, and request bodies and answers in flight
   */
  budgetBytes: number;
  alive: boolean;
}

const INDEX = 'overload';
/** the service's SVC_IN_FLIGHT_REQUESTS_BYTES default */
const DEFAULT_IN_FLIGHT_BYTES = 256 * 1024 * 1024;

const EXPENSIVE: ReadonlyArray<{ path: string; body: unknown }> = [
  { path: `/${INDEX}/_search`, body: { size: 0, aggs: { ids: { terms: { field: 'request_id', size: 65_535 } } } } },
  { path: `/${INDEX}/_search`, body: { size: 0, aggs: { t: { date_histogram: { field: '_ts', fixed_interval: '1s' }, aggs: { u: { terms: { field: 'user', size: 500 } }, c: { cardinality: { field: 'request_id' } } } } } } },
  { path: `/${INDEX}/_search`, body: { size: 0, aggs: { c: { cardinality: { field: 'request_id' } }, p: { percentiles: { field: 'latency_ms' } } } } },
  { path: `/${INDEX}/_search`, body: { query: { query_string: { query: '*a*' } }, size: 500 } },
  { path: `/${INDEX}/_search`, body: { query: { match_all: {} }, from: 9_000, size: 1_000, sort: [{ latency_ms: 'desc' }] } },
  { path: `/${INDEX}/_search`, body: { size: 0, aggs: { u: { terms: { field: 'user', size: 10_000 }, aggs: { r: { terms: { field: 'request_id', size: 1_000 } } } } } } },
];

export async function runOverload(opts: OverloadOptions): Promise<OverloadReport> {
  const log = opts.log ?? (() => undefined);
  const server = await startServer({
    repoRoot: opts.repoRoot,
    dataDir: path.join(opts.workDir, 'data'),
    port: 0,
    logFile: path.join(opts.workDir, 'overload.log'),
    nodeArgs: opts.nodeArgs ?? [],
    env: {
      SVC_AGGREGATION_MEMORY_BYTES: String(opts.aggregationMemoryBytes),
      SVC_MEMTABLE_MAX_BYTES: String(opts.memtableMaxBytes),
      SVC_WAL_MAX_UNFLUSHED_BYTES: String(opts.walMaxUnflushedBytes),
      SVC_READER_CACHE_BYTES: String(opts.readerCacheBytes),
      ...(opts.queryQueueSize === undefined ? {} : { SVC_QUERY_QUEUE_SIZE: String(opts.queryQueueSize) }),
      ...(opts.inFlightRequestsBytes === undefined ? {} : { SVC_IN_FLIGHT_REQUESTS_BYTES: String(opts.inFlightRequestsBytes) }),
      ...(opts.memoryLimitBytes === undefined ? {} : { SVC_MEMORY_LIMIT_BYTES: String(opts.memoryLimitBytes) }),
    },
    startTimeoutMs: 60_000,
  });
  const memory = new MemorySampler(server.pid);
  memory.start(50);
  const statuses: Record<string, number> = {};
  const unexpected: string[] = [];
  let searches = 0;
  let bulks = 0;
  let searchesAnswered = 0;
  let searchesRejected = 0;
  let searchesOverBudget = 0;
  let searchesTooManyBuckets = 0;
  let documentsAcknowledged = 0;
  let bulksRefused = 0;
  const bulkLatencies: number[] = [];
  const backoffMs = opts.backoffMs ?? 100;
  let probes = 0;
  let probeFailures = 0;
  let longestProbe = 0;
  const deadline = performance.now() + opts.durationMs;
  const count = (status: number, what: string, text: string) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    // a nested terms over many users may pass SVC_MAX_BUCKETS once enough is ingested: a 400 of its own
    const tooManyBuckets = status === 400 && errorType(text) === 'too_many_buckets_exception';
    if (tooManyBuckets) searchesTooManyBuckets++;
    else if (status !== 200 && status !== 429 && status !== 504 && unexpected.length < 20) unexpected.push(`${what} -> ${status} ${text.slice(0, 200)}`);
  };

  const writer = async (w: number, requests = Infinity) => {
    for (let r = 0; r < requests && performance.now() < deadline; r++) {
      const lines: string[] = [];
      for (let d = 0; d < 1_000; d++) {
        const id = `${w}-${r}-${d}`;
        lines.push(`{"index":{"_index":"${INDEX}"}}`, JSON.stringify({ _line: `GET /api/items/${id} user u${d % 977} took ${d % 300} ms`, request_id: id, user: `u${(d * 31) % 977}`, latency_ms: (d * 7) % 1_000 }));
      }
      try {
        const sent = performance.now();
        const res = await fetch(`${server.url}/_bulk`, { method: 'POST', body: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
        const text = await res.text();
        bulkLatencies.push(performance.now() - sent);
        count(res.status, 'bulk', text);
        bulks++;
        if (res.status === 200) documentsAcknowledged += acknowledgedItems(text);
        if (res.status === 429) {
          bulksRefused++;
          await new Promise((r) => setTimeout(r, backoffMs));
        }
      } catch (err) {
        unexpected.push(`bulk failed: ${(err as Error).message}`);
        return;
      }
    }
  };
  const searcher = async (c: number) => {
    for (let i = c; performance.now() < deadline; i++) {
      const q = EXPENSIVE[i % EXPENSIVE.length]!;
      try {
        const res = await fetch(`${server.url}${q.path}`, { method: 'POST', body: JSON.stringify(q.body), headers: { 'content-type': 'application/json' } });
        const text = await res.text();
        count(res.status, JSON.stringify(q.body).slice(0, 80), text);
        searches++;
        if (res.status === 200) searchesAnswered++;
        if (res.status === 429) {
          const type = errorType(text);
          if (type === 'es_rejected_execution_exception') searchesRejected++;
          else if (type === 'circuit_breaking_exception') searchesOverBudget++;
          else if (unexpected.length < 20) unexpected.push(`search -> 429 of an unknown kind: ${text.slice(0, 200)}`);
          await new Promise((r) => setTimeout(r, backoffMs));
        }
      } catch (err) {
        unexpected.push(`search failed: ${(err as Error).message}`);
        return;
      }
    }
  };
  const prober = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        const res = await fetch(`${server.url}/health/livez`, { signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        if (res.status !== 200) probeFailures++;
      } catch {
        probeFailures++;
      }
      probes++;
      longestProbe = Math.max(longestProbe, performance.now() - started);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  let peakInFlight = 0;
  let peakMainHeap = 0;
  const gauges = async () => {
    while (performance.now() < deadline) {
      try {
        const text = await (await fetch(`${server.url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
        peakInFlight = Math.max(peakInFlight, gauge(text, 'svc_in_flight_requests_bytes'));
        peakMainHeap = Math.max(peakMainHeap, gauge(text, 'svc_jemalloc_resident_bytes'));
      } catch {
        // the prober reports an unanswering service
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  // a first batch so that the searches have something to chew on from the start
  await writer(-1, opts.initialBulks ?? 5);
  await Promise.all([...Array.from({ length: opts.writers }, (_, w) => writer(w, opts.bulksPerWriter)), ...Array.from({ length: opts.searchClients }, (_, c) => searcher(c)), prober(), gauges()]);
  memory.stop();
  const alive = server.running() && (await fetch(`${server.url}/health/livez`).then((r) => r.status === 200).catch(() => false));
  const peak = Math.max(memory.peakSampledBytes ?? 0, memory.highWaterMarkBytes() ?? 0);
  await server.stop(60_000);
  const report: OverloadReport = {
    durationMs: opts.durationMs,
    searches,
    bulks,
    statuses,
    unexpected,
    searchesAnswered,
    searchesRejected,
    searchesOverBudget,
    searchesTooManyBuckets,
    documentsAcknowledged,
    bulksRefused,
    bulkLatencyMs: { median: Math.round(median(bulkLatencies)), p99: Math.round(percentile(bulkLatencies, 99)), max: Math.round(Math.max(0, ...bulkLatencies)) },
    livenessProbes: probes,
    livenessFailures: probeFailures,
    longestLivenessMs: Math.round(longestProbe),
    peakRssBytes: peak,
    peakInFlightBytes: peakInFlight,
    peakMainHeapBytes: peakMainHeap,
    aggregationMemoryBytes: opts.aggregationMemoryBytes,
    readerCacheBytes: opts.readerCacheBytes,
    budgetBytes: opts.aggregationMemoryBytes + opts.memtableMaxBytes * 2 + opts.readerCacheBytes + (opts.inFlightRequestsBytes ?? DEFAULT_IN_FLIGHT_BYTES),
    alive,
  };
  log(JSON.stringify(report));
  return report;
}

/** a gauge's value in the /metrics text, 0 when absent */
function gauge(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1)) || 0;
}

function errorType(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { error?: { type?: string } }).error?.type;
  } catch {
    return undefined;
  }
}

/** items of a bulk answer that were created */
function acknowledgedItems(text: string): number {
  const { items } = JSON.parse(text) as { items: Array<Record<string, { status: number }>> };
  let n = 0;
  for (const item of items) if (Object.values(item)[0]?.status === 201) n++;
  return n;
}
