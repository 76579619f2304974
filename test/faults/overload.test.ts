import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { runOverload, type OverloadOptions } from '../../bench/faults/index.js';
import { repoRoot } from '../support/repo-root.js';

const MiB = 1024 * 1024;

/** The short run's load and budgets. */
function shortRun(workDir: string): OverloadOptions {
  return {
    repoRoot: repoRoot(),
    workDir,
    durationMs: 8_000,
    searchClients: 12,
    writers: 2,
    // 20,000 documents from the start: enough for a terms over request_id to pass 2 MiB
    initialBulks: 20,
    // the peak RSS below is measured for this much ingest
    bulksPerWriter: 10,
    // small enough that the mix crosses it, and that searches wait for a turn
    aggregationMemoryBytes: 2 * MiB,
    queryQueueSize: 2,
    memtableMaxBytes: 16 * MiB,
    walMaxUnflushedBytes: 64 * MiB,
    readerCacheBytes: 32 * MiB,
    // bodies of 150 KiB and answers up to 2 MiB (the terms over request_id): rarely passed
    inFlightRequestsBytes: 16 * MiB,
  };
}

describe('overload (the short run of bench/overload.ts)', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-overload-test-'));
  after(() => fs.rmSync(workDir, { recursive: true, force: true }));

  it('expensive searches from many clients while ingesting: 429s, not a death; writes go on; liveness answers; memory within the budgets', async (t) => {
    const report = await runOverload({ ...shortRun(workDir), log: (line) => t.diagnostic(line) });
    assert.ok(report.alive, 'the service is alive at the end');
    assert.deepEqual(report.unexpected, [], 'every answer is a success, a 429, a 504 or a 400 too_many_buckets_exception');
    assert.ok(report.searches > 0 && report.bulks > 0);
    assert.ok(report.searchesRejected > 0, 'no search found the search queue full (429 es_rejected_execution_exception)');
    assert.ok(report.searchesOverBudget > 0, 'no aggregation crossed its memory budget (429 circuit_breaking_exception)');
    assert.ok(report.searchesAnswered > 0, 'some searches were answered');
    assert.ok(report.documentsAcknowledged > 0, 'writes were acknowledged while the searches ran');
    assert.equal(report.livenessFailures, 0, 'liveness answered every probe');
    // the budgets bound what requests and readers hold; on top come the runtime and code (about
    // 145 MiB at idle), what ingesting holds beyond the memtable's count (about 110 MiB of
    // allocator memory after 50,000 documents), what a running search built and was not let keep
    // (until its turn ends), and the garbage of refused aggregations and evicted entries until
    // the next collection (peaks of 422 to 534 MiB with a 32 MiB reader budget, depending on how
    // much the machine lets the writers ingest; 430 to 465 MiB before it)
    const baseline = 576 * MiB;
    assert.ok(report.peakRssBytes < report.budgetBytes + baseline, `peak RSS ${(report.peakRssBytes / MiB).toFixed(0)} MiB over the budgets ${(report.budgetBytes / MiB).toFixed(0)} MiB + ${baseline / MiB} MiB`);
  });

  it('with SVC_MEMORY_LIMIT_BYTES: the same load stays under the limit, refused with 429 [parent] rather than answered', async (t) => {
    const limit = 448 * MiB;
    const report = await runOverload({ ...shortRun(workDir), memoryLimitBytes: limit, log: (line) => t.diagnostic(line) });
    assert.ok(report.alive, 'the service is alive at the end');
    assert.deepEqual(report.unexpected, [], 'every answer is a success, a 429, a 504 or a 400 too_many_buckets_exception');
    assert.equal(report.livenessFailures, 0, 'liveness answered every probe');
    assert.ok(report.peakRssBytes <= limit, `peak RSS ${(report.peakRssBytes / MiB).toFixed(0)} MiB over the ${limit / MiB} MiB limit`);
  });
});
