/**
 * Sends prepared `_bulk` bodies with a fixed number of requests in flight and measures
 * throughput over the whole run and sustained (after the first 5 % of documents are
 * acknowledged, past start-up effects). Busy answers (429, 503) are retried with backoff.
 */
import { HttpClient, jsonBody, median, percentile } from '../harness/index.js';
import type { BulkBodies } from './bulk-bodies.js';

export interface IngestOptions {
  concurrency: number;
  /** documents acknowledged before the sustained window opens, as a fraction */
  warmupFraction: number;
  onProgress?: (ackedDocs: number, elapsedMs: number) => void;
  /** the body actually sent for body i (default: the corpus body as it is) */
  bodyAt?: (i: number) => Buffer;
}

export interface Throughput {
  docs: number;
  bytes: number;
  elapsedMs: number;
  docsPerSec: number;
  mbPerSec: number;
}

export interface IngestResult {
  whole: Throughput;
  sustained: Throughput;
  requests: number;
  retries: number;
  failedItems: number;
  firstFailure?: string;
  requestMs: { median: number; p90: number; max: number };
}

const MB = 1_000_000;
const MAX_RETRIES = 20;

export async function loadBulk(client: HttpClient, corpus: BulkBodies, opts: IngestOptions): Promise<IngestResult> {
  const total = corpus.bodies.length;
  const warmupDocs = Math.ceil(corpus.docs * opts.warmupFraction);
  let next = 0;
  let ackedDocs = 0;
  let ackedBytes = 0;
  let retries = 0;
  let failedItems = 0;
  let firstFailure: string | undefined;
  let warm: { atMs: number; docs: number; bytes: number } | undefined;
  const requestMs: number[] = [];
  const started = performance.now();

  const send = async (i: number) => {
    for (let attempt = 0; ; attempt++) {
      const res = await client.request({ method: 'POST', path: '/_bulk', body: opts.bodyAt?.(i) ?? corpus.bodies[i]!, contentType: 'application/x-ndjson' });
      if ((res.status === 429 || res.status === 503) && attempt < MAX_RETRIES) {
        retries++;
        await new Promise((r) => setTimeout(r, Math.min(5000, 50 * 2 ** attempt)));
        continue;
      }
      if (res.status !== 200) throw new Error(`bulk request ${i} failed with status ${res.status}: ${res.body.subarray(0, 300).toString()}`);
      // the flag sits at the start of the answer; parse the whole thing only when it says errors
      const body = res.body.subarray(0, 64).toString('latin1').includes('"errors":false') ? null : jsonBody(res, 'bulk');
      // every item refused for being busy (a cluster's cache node over its write budget answers
      // per item): the request is sent again, as a shipper retries those items
      if (body !== null && allItemsBusy(body) && attempt < MAX_RETRIES) {
        retries++;
        await new Promise((r) => setTimeout(r, Math.min(5000, 50 * 2 ** attempt)));
        continue;
      }
      requestMs.push(res.elapsedMs);
      if (body !== null) countFailures(body);
      return;
    }
  };

  const countFailures = (body: unknown) => {
    const items = (body as { items?: Array<Record<string, { status?: number; error?: { reason?: string } }>> }).items ?? [];
    for (const item of items) {
      const result = Object.values(item)[0];
      if (result && (result.status ?? 0) >= 300) {
        failedItems++;
        firstFailure ??= `status ${result.status}: ${result.error?.reason ?? 'no reason'}`;
      }
    }
  };

  const worker = async () => {
    while (next < total) {
      const i = next++;
      await send(i);
      ackedDocs += corpus.docCounts[i]!;
      ackedBytes += corpus.bodies[i]!.length;
      const now = performance.now();
      if (!warm && ackedDocs >= warmupDocs) warm = { atMs: now - started, docs: ackedDocs, bytes: ackedBytes };
      opts.onProgress?.(ackedDocs, now - started);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, total) }, worker));
  const elapsedMs = performance.now() - started;

  const w = warm ?? { atMs: 0, docs: 0, bytes: 0 };
  return {
    whole: throughput(ackedDocs, ackedBytes, elapsedMs),
    sustained: throughput(ackedDocs - w.docs, ackedBytes - w.bytes, elapsedMs - w.atMs),
    requests: requestMs.length,
    retries,
    failedItems,
    firstFailure,
    requestMs: { median: median(requestMs), p90: percentile(requestMs, 90), max: Math.max(...requestMs) },
  };
}

/** True when a bulk answer's items all failed with 429. */
function allItemsBusy(body: unknown): boolean {
  const items = (body as { items?: Array<Record<string, { status?: number }>> }).items ?? [];
  return items.length > 0 && items.every((item) => Object.values(item)[0]?.status === 429);
}

export function throughput(docs: number, bytes: number, elapsedMs: number): Throughput {
  const secs = elapsedMs / 1000;
  return { docs, bytes, elapsedMs, docsPerSec: docs / secs, mbPerSec: bytes / MB / secs };
}
