/**
 * Query latency while ingest runs at full speed: the corpus is sent again, into a second index,
 * with the usual number of `_bulk` requests in flight, while one client goes through the query
 * cases on the first (unchanged, so every answer is still checked) until the last bulk answer.
 * What it shows is the tail a search box or an alert sees on a busy node: p99 beside the median.
 */
import { HttpClient } from '../harness/index.js';
import { loadBulk, type BulkBodies, type IngestResult } from '../ingest/index.js';
import type { QueryCase, QueryContext } from './query-case.js';
import { runQueryCases, type QueryCaseResult } from './run-cases.js';

export interface UnderIngestResult {
  /** the index the corpus was sent to while the queries ran */
  loadIndex: string;
  ingest: IngestResult;
  queries: QueryCaseResult[];
}

export async function queriesUnderIngest(
  baseUrl: string,
  corpus: BulkBodies,
  cases: readonly QueryCase[],
  ctx: QueryContext,
  opts: { concurrency: number; loadIndex: string },
): Promise<UnderIngestResult> {
  const from = `{"index":{"_index":${JSON.stringify(ctx.index)}}}\n`;
  const to = `{"index":{"_index":${JSON.stringify(opts.loadIndex)}}}\n`;
  const bulkClient = new HttpClient(baseUrl, opts.concurrency);
  const queryClient = new HttpClient(baseUrl, 1);
  let done = false;
  try {
    // the corpus is ASCII apart from what JSON.stringify escapes, so latin1 keeps every byte
    const ingest = loadBulk(bulkClient, corpus, {
      concurrency: opts.concurrency,
      warmupFraction: 0.05,
      bodyAt: (i) => Buffer.from(corpus.bodies[i]!.toString('latin1').replaceAll(from, to), 'latin1'),
    }).finally(() => {
      done = true;
    });
    const queries = runQueryCases(queryClient, cases, ctx, { repeats: 1, warmupRounds: 0, stop: () => done });
    return { loadIndex: opts.loadIndex, ingest: await ingest, queries: await queries };
  } finally {
    bulkClient.close();
    queryClient.close();
  }
}
