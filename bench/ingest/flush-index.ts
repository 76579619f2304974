/** `POST /{index}/_flush`, timed: what it takes until every acknowledged document is in segment files. */
import type { HttpClient } from '../harness/index.js';
import { throughput, type IngestResult, type Throughput } from './bulk-loader.js';

export interface FlushResult {
  available: boolean;
  status: number | null;
  ms: number | null;
  error?: string;
}

export async function flushIndex(client: HttpClient, index: string): Promise<FlushResult> {
  const res = await client.request({ method: 'POST', path: `/${encodeURIComponent(index)}/_flush` }, 1_800_000);
  // Elasticsearch answers 400 "no handler found" for an unknown route; others may say 404 or 405
  const missing = res.status === 400 || res.status === 404 || res.status === 405;
  return {
    available: !missing,
    status: res.status,
    ms: missing ? null : res.elapsedMs,
    error: res.status === 200 || missing ? undefined : res.body.subarray(0, 300).toString('utf8'),
  };
}

/** True when the flush answered 200: only then do its figures count. */
export function flushed(flush: FlushResult): flush is FlushResult & { ms: number } {
  return flush.available && flush.error === undefined && flush.ms !== null;
}

/**
 * Ingest until flushed: every document acknowledged and then in segment files, over the time of
 * the last bulk answer (from the first request) plus the time `_flush` took. Null without a
 * successful flush.
 */
export function ingestUntilFlushed(ingest: IngestResult, flush: FlushResult): Throughput | null {
  if (!flushed(flush)) return null;
  return throughput(ingest.whole.docs, ingest.whole.bytes, ingest.whole.elapsedMs + flush.ms);
}
