#!/usr/bin/env node
/**
 * One process against the specified deployment on the same machine: the corpus is sent over
 * `_bulk` into several indexes (a cache node holds whole indexes, so one index would use one
 * cache node), timed until every index's `_flush` returns; then a few queries over all of them,
 * median of repeated runs. The split layouts run on one PostgreSQL and one Azurite started here:
 * a coordinator, two api processes (writers spread over both), 1, 2 or 3 cache nodes and a
 * storage process; the one with 3 cache nodes is the seven-process layout. The single process
 * runs with the embedded defaults (SQLite, a local directory), as `svc serve` does.
 *
 *   npm run build && node dist/bench/cluster.js                    # 1,000,000 docs, 6 indexes
 *   node dist/bench/cluster.js --docs 200000 --cache-nodes 1,3 --query-rounds 20
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { CorpusGenerator, NEWEST_COUNT, STATUS_AT_LEAST, chooseQueryWords, type QueryWords } from './corpus/index.js';
import { HttpClient, integer, median, processCpuSeconds, repoRoot } from './harness/index.js';
import { buildBulkBodies, loadBulk, throughput, type BulkBodies, type Throughput } from './ingest/index.js';
import { startSingleLayout, startSplitLayout, type Layout } from './cluster/index.js';
import { startPostgres } from '../test/support/postgres.js';
import { startAzurite } from '../test/support/azurite.js';

interface Options {
  docs: number;
  seed: number;
  batch: number;
  concurrency: number;
  indexes: number;
  cacheNodes: number[];
  queryRounds: number;
}

interface QueryCase {
  name: string;
  body: unknown;
}

interface RunResult {
  layout: string;
  ingest: Throughput;
  flushMs: number;
  cpuSeconds: number;
  queries: Array<{ name: string; medianMs: number; total: number }>;
}

const PATTERN = 'bench-logs-*';

function queryCases(w: QueryWords): QueryCase[] {
  const count = (q: string) => ({ size: 0, track_total_hits: true, query: { query_string: { query: q } } });
  return [
    { name: 'count: rare word', body: count(w.rare) },
    { name: 'count: two common words AND', body: count(`${w.conjunction[0]} AND ${w.conjunction[1]}`) },
    { name: `count: status:>=${STATUS_AT_LEAST}`, body: count(`status:>=${STATUS_AT_LEAST}`) },
    { name: `newest ${NEWEST_COUNT} of a common word`, body: { size: NEWEST_COUNT, query: { query_string: { query: w.newest } } } },
    { name: 'date_histogram per minute', body: { size: 0, aggs: { m: { date_histogram: { field: '_ts', fixed_interval: '1m' } } } } },
    { name: 'top-10 terms of a keyword field', body: { size: 0, aggs: { s: { terms: { field: 'service', size: 10 } } } } },
  ];
}

/** The corpus's bodies in `parts` shares, body i to share i % parts (one per api process). */
function shares(corpus: BulkBodies, parts: number): BulkBodies[] {
  return Array.from({ length: parts }, (_, p) => {
    const picked = corpus.bodies.map((_, i) => i).filter((i) => i % parts === p);
    const bodies = picked.map((i) => corpus.bodies[i]!);
    const docCounts = Uint32Array.from(picked, (i) => corpus.docCounts[i]!);
    return { ...corpus, bodies, docCounts, docs: docCounts.reduce((a, b) => a + b, 0), totalBytes: bodies.reduce((a, b) => a + b.length, 0) };
  });
}

async function ingest(layout: Layout, corpus: BulkBodies, indexes: readonly string[], concurrency: number): Promise<{ ingest: Throughput; flushMs: number }> {
  const clients = layout.apiUrls.map((url) => new HttpClient(url, Math.max(1, Math.ceil(concurrency / layout.apiUrls.length))));
  try {
    const started = performance.now();
    const parts = shares(corpus, clients.length);
    const results = await Promise.all(
      clients.map((client, i) => loadBulk(client, parts[i]!, { concurrency: Math.max(1, Math.ceil(concurrency / clients.length)), warmupFraction: 0.05 })),
    );
    for (const r of results) if (r.failedItems > 0) throw new Error(`${layout.name}: ${r.failedItems} items failed, first: ${r.firstFailure}`);
    const loadedMs = performance.now() - started;
    const flushStarted = performance.now();
    await Promise.all(
      indexes.map(async (index, i) => {
        const res = await clients[i % clients.length]!.request({ method: 'POST', path: `/${index}/_flush` }, 1_800_000);
        if (res.status !== 200) throw new Error(`${layout.name}: _flush of ${index}: ${res.status} ${res.body.toString('utf8', 0, 300)}`);
      }),
    );
    const flushMs = performance.now() - flushStarted;
    return { ingest: throughput(corpus.docs, corpus.totalBytes, loadedMs + flushMs), flushMs };
  } finally {
    for (const c of clients) c.close();
  }
}

async function timeQueries(layout: Layout, cases: readonly QueryCase[], rounds: number): Promise<RunResult['queries']> {
  const client = new HttpClient(layout.apiUrls[0]!, 1);
  try {
    const samples = cases.map(() => [] as number[]);
    const totals = cases.map(() => 0);
    for (let round = 0; round < rounds + 3; round++) {
      for (let i = 0; i < cases.length; i++) {
        const res = await client.request({ method: 'POST', path: `/${PATTERN}/_search`, body: JSON.stringify(cases[i]!.body) });
        if (res.status !== 200) throw new Error(`${layout.name}: ${cases[i]!.name}: ${res.status} ${res.body.toString('utf8', 0, 300)}`);
        if (round >= 3) samples[i]!.push(res.elapsedMs);
        totals[i] = (JSON.parse(res.body.toString('utf8')) as { hits: { total: { value: number } } }).hits.total.value;
      }
    }
    return cases.map((c, i) => ({ name: c.name, medianMs: median(samples[i]!), total: totals[i]! }));
  } finally {
    client.close();
  }
}

async function runLayout(start: () => Promise<Layout>, corpus: BulkBodies, indexes: readonly string[], cases: readonly QueryCase[], o: Options): Promise<RunResult> {
  const layout = await start();
  try {
    const cpuBefore = layout.pids.reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0);
    const { ingest: figures, flushMs } = await ingest(layout, corpus, indexes, o.concurrency);
    const cpuSeconds = layout.pids.reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0) - cpuBefore;
    const queries = cases.length === 0 ? [] : await timeQueries(layout, cases, o.queryRounds);
    process.stdout.write(`${layout.name}: ${Math.round(figures.docsPerSec).toLocaleString('en-US')} docs/s until flushed\n`);
    return { layout: layout.name, ingest: figures, flushMs, cpuSeconds, queries };
  } finally {
    await layout.stop();
  }
}

function report(runs: readonly RunResult[]): string {
  const lines = ['', '| layout | ingest until flushed, docs/s | MB/s | `_flush` s | CPU s of all processes |', '|---|---|---|---|---|'];
  for (const r of runs) {
    lines.push(`| ${r.layout} | ${Math.round(r.ingest.docsPerSec).toLocaleString('en-US')} | ${r.ingest.mbPerSec.toFixed(1)} | ${(r.flushMs / 1000).toFixed(1)} | ${r.cpuSeconds.toFixed(1)} |`);
  }
  const timed = runs.filter((r) => r.queries.length > 0);
  if (timed.length > 0) {
    lines.push('', `| query (median ms, over \`${PATTERN}\`) | ${timed.map((r) => r.layout).join(' | ')} | hits |`, `|---|${timed.map(() => '---|').join('')}---|`);
    timed[0]!.queries.forEach((q, i) => {
      lines.push(`| ${q.name} | ${timed.map((r) => r.queries[i]!.medianMs.toFixed(1)).join(' | ')} | ${timed.map((r) => r.queries[i]!.total.toLocaleString('en-US')).join(' / ')} |`);
    });
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const o = new Command('cluster')
    .option('--docs <n>', 'documents in the corpus', integer(1), 1_000_000)
    .option('--seed <n>', 'corpus seed', integer(0), 42)
    .option('--batch <n>', 'documents per _bulk request', integer(1), 5000)
    .option('--concurrency <n>', '_bulk requests in flight, spread over the api processes', integer(1), 4)
    .option('--indexes <n>', 'indexes the corpus is spread over', integer(1), 6)
    .option('--cache-nodes <list>', 'cache nodes of each split layout run', (v: string) => v.split(',').map((n) => integer(1)(n)), [1, 2, 3])
    .option('--query-rounds <n>', 'timed rounds of each query', integer(1), 15)
    .parse()
    .opts<Options>();
  const indexes = Array.from({ length: o.indexes }, (_, i) => `bench-logs-${i}`);
  const corpus = buildBulkBodies(new CorpusGenerator({ seed: o.seed, docs: o.docs }), { batchDocs: o.batch, index: indexes[0]!, indexes });
  const cases = queryCases(chooseQueryWords(new CorpusGenerator({ seed: o.seed, docs: o.docs })));
  process.stdout.write(`${o.docs.toLocaleString('en-US')} documents (${(corpus.totalBytes / 1e6).toFixed(1)} MB of NDJSON) over ${o.indexes} indexes, ${o.concurrency} bulk requests in flight\n`);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cluster-bench-'));
  const [pg, azurite] = await Promise.all([startPostgres(), startAzurite()]);
  const runs: RunResult[] = [];
  try {
    const root = repoRoot();
    runs.push(await runLayout(() => startSingleLayout(root, path.join(workDir, 'single')), corpus, indexes, cases, o));
    const largest = Math.max(...o.cacheNodes);
    for (const caches of o.cacheNodes) {
      const [metastoreUrl, container] = await Promise.all([pg.newDatabase(), azurite.createContainer()]);
      const dir = path.join(workDir, `split-${caches}`);
      const start = () => startSplitLayout(root, dir, { apis: 2, caches, metastoreUrl, objectStoreUrl: azurite.sasUrl(container) });
      // queries are timed on the largest layout only
      runs.push(await runLayout(start, corpus, indexes, caches === largest ? cases : [], o));
    }
  } finally {
    await Promise.all([pg.stop(), azurite.stop()]);
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  process.stdout.write(report(runs));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
