/**
 * Latency of the selective queries on a kept data directory (`node dist/bench/run.js --keep`),
 * two ways: in process (the segment files opened here and searched with `executeSearch`, no
 * HTTP, no query thread) and over HTTP against running services (`--url`, one or more: the
 * rounds alternate between them, so that builds compared side by side share the machine's
 * load). Prints the median, 10th and 90th percentile of each query per target, in ms.
 *
 *   node dist/bench/query-latency.js --data /tmp/svc-bench-x/data --docs 1000000 --rounds 500
 *   node dist/bench/query-latency.js --data … --url http://127.0.0.1:9201,http://127.0.0.1:9202 --no-in-process
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { ABSENT_WORD, CorpusGenerator, NEWEST_COUNT, STATUS_AT_LEAST, chooseQueryWords, type QueryWords } from './corpus/index.js';
import { HttpClient, integer, median, percentile } from './harness/index.js';
import { parseQueryString } from '../src/query/index.js';
import { executeSearch, type SearchRequest, type SearchTarget } from '../src/engine/search/index.js';
import { openSegment } from '../src/engine/segment/index.js';

interface LatencyCase {
  name: string;
  q: string;
  size: number;
  /** `track_total_hits=true` when set, else the default (10,000) */
  exactTotal: boolean;
}

function latencyCases(w: QueryWords): LatencyCase[] {
  return [
    { name: 'match-nothing', q: ABSENT_WORD, size: 10, exactTotal: false },
    { name: 'count: rare word', q: w.rare, size: 0, exactTotal: true },
    { name: 'rare word, 10 hits', q: w.rare, size: 10, exactTotal: false },
    { name: 'count: common word', q: w.common, size: 0, exactTotal: true },
    { name: 'count: two common words AND', q: `${w.conjunction[0]} AND ${w.conjunction[1]}`, size: 0, exactTotal: true },
    { name: 'count: rare word AND common word', q: `${w.rare} AND ${w.common}`, size: 0, exactTotal: true },
    { name: 'count: phrase', q: `"${w.phrase[0]} ${w.phrase[1]}"`, size: 0, exactTotal: true },
    { name: `count: status:>=${STATUS_AT_LEAST}`, q: `status:>=${STATUS_AT_LEAST}`, size: 0, exactTotal: true },
    { name: `newest ${NEWEST_COUNT} of a common word`, q: w.newest, size: NEWEST_COUNT, exactTotal: false },
  ];
}

function segmentFiles(dataDir: string, index: string | undefined): string[] {
  const root = path.join(dataDir, 'indexes');
  const out: string[] = [];
  for (const dir of fs.readdirSync(root)) {
    if (index !== undefined && dir !== index) continue;
    for (const f of fs.readdirSync(path.join(root, dir))) if (f.endsWith('.seg')) out.push(path.join(root, dir, f));
  }
  return out.sort();
}

function summary(samples: number[]): string {
  return `${median(samples).toFixed(3)} (p10 ${percentile(samples, 10).toFixed(3)}, p90 ${percentile(samples, 90).toFixed(3)})`;
}

function inProcess(files: readonly string[], cases: readonly LatencyCase[], rounds: number, indexName: string): void {
  const targets: SearchTarget[] = files.map((filePath, order) => ({ index: indexName, segment: openSegment(filePath), filePath, order }));
  const requests: SearchRequest[] = cases.map((c) => ({
    query: parseQueryString(c.q, {}),
    from: 0,
    size: c.size,
    sort: [],
    trackTotalHits: c.exactTotal ? true : 10_000,
  }));
  const samples = cases.map(() => [] as number[]);
  const totals = cases.map(() => 0);
  for (let round = 0; round < rounds + 5; round++) {
    for (let i = 0; i < cases.length; i++) {
      const started = process.hrtime.bigint();
      const result = executeSearch(targets, requests[i]!);
      const us = Number(process.hrtime.bigint() - started) / 1000;
      if (round >= 5) samples[i]!.push(us / 1000);
      totals[i] = result.total;
    }
  }
  console.log(`in process, ${files.length} segment files, ${rounds} rounds (ms):`);
  cases.forEach((c, i) => console.log(`  ${c.name.padEnd(40)} ${summary(samples[i]!)}  total ${totals[i]}`));
}

async function overHttp(urls: readonly string[], cases: readonly LatencyCase[], rounds: number, indexName: string): Promise<void> {
  const clients = urls.map((u) => new HttpClient(u, 1));
  const paths = cases.map((c) => {
    const params = new URLSearchParams({ q: c.q, size: String(c.size) });
    if (c.exactTotal) params.set('track_total_hits', 'true');
    return `/${encodeURIComponent(indexName)}/_search?${params.toString()}`;
  });
  const samples = urls.map(() => cases.map(() => [] as number[]));
  const bytes = urls.map(() => cases.map(() => 0));
  for (let round = 0; round < rounds + 5; round++) {
    for (let i = 0; i < cases.length; i++) {
      for (let u = 0; u < urls.length; u++) {
        // alternate which target goes first, so that neither always follows the other's work
        const t = (u + round) % urls.length;
        const res = await clients[t]!.request({ method: 'GET', path: paths[i]! });
        if (res.status !== 200) throw new Error(`${urls[t]} ${paths[i]}: status ${res.status} ${res.body.toString('utf8', 0, 300)}`);
        if (round >= 5) samples[t]![i]!.push(res.elapsedMs);
        bytes[t]![i] = res.body.length;
      }
    }
  }
  urls.forEach((u, t) => {
    console.log(`over HTTP, ${u}, ${rounds} rounds (ms):`);
    cases.forEach((c, i) => console.log(`  ${c.name.padEnd(40)} ${summary(samples[t]![i]!)}  ${bytes[t]![i]} bytes`));
  });
}

interface Options {
  data: string;
  docs: number;
  seed: number;
  rounds: number;
  index: string;
  indexDir?: string;
  url: string;
  inProcess: boolean;
}

const program = new Command()
  .requiredOption('--data <dir>', 'a kept data directory of the benchmark')
  .option('--docs <n>', 'documents of the corpus it holds (the query words depend on it)', integer(1), 1_000_000)
  .option('--seed <n>', 'corpus seed', integer(0), 42)
  .option('--rounds <n>', 'timed rounds over all queries', integer(1), 300)
  .option('--index <name>', 'index name', 'bench-logs')
  .option('--index-dir <uuid>', 'only the segment files of this index folder')
  .option('--url <list>', 'comma-separated service URLs to time over HTTP', '')
  .option('--no-in-process', 'skip the in-process timing');
program.parse(process.argv);
const o = program.opts<Options>();
const words = chooseQueryWords(new CorpusGenerator({ seed: o.seed, docs: o.docs }));
const cases = latencyCases(words);
if (o.inProcess) inProcess(segmentFiles(o.data, o.indexDir), cases, o.rounds, o.index);
const urls = o.url.split(',').filter(Boolean);
if (urls.length > 0) await overHttp(urls, cases, o.rounds, o.index);
