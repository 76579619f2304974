import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { runSlowDisk } from '../../bench/faults/index.js';
import { repoRoot } from '../support/repo-root.js';

const KiB = 1024;
const MiB = 1024 * KiB;

describe('a slow disk under the data directory (the short run of bench/slow-disk.ts)', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-slow-disk-test-'));
  // the run unmounts and detaches what it made, failed or not
  after(() => fs.rmSync(workDir, { recursive: true, force: true }));

  it('writes slow down or get 429, never a 5xx or a hang; searches and liveness answer; nothing acknowledged is lost; normal again once the throttle is lifted', async (t) => {
    const report = await runSlowDisk({
      repoRoot: repoRoot(),
      workDir,
      deviceBytes: 256 * MiB,
      // a few WAL fsyncs a second, and a segment file takes seconds to reach the device
      limits: { writeBytesPerSecond: 256 * KiB, writeIops: 20, readBytesPerSecond: 2 * MiB, readIops: 200 },
      normalMs: 3_000,
      slowMs: 8_000,
      recoveredMs: 4_000,
      writers: 2,
      docsPerBulk: 1_000,
      clientTimeoutMs: 30_000,
      memtableMaxBytes: 2 * MiB,
      walMaxUnflushedBytes: 8 * MiB,
      log: (line) => t.diagnostic(line),
    });
    if (typeof report === 'string') return t.skip(report);
    assert.deepEqual(report.unexpected, [], 'every answer is a success or a 429, in time');
    assert.ok(report.throttledWriteBytes > 0, 'the service wrote to the device through the throttle');
    const { slow } = report.phases;
    assert.ok(slow.bulks > 0, 'bulk requests were answered while the disk was slow');
    for (const type of Object.keys(slow.refused)) assert.ok(['es_rejected_execution_exception', 'cluster_block_exception'].includes(type), `a 429 of type ${type}`);
    assert.ok(slow.searches > 0 && slow.probes > 0, 'searches and liveness answered while the disk was slow');
    assert.ok(report.acknowledged > 0);
    assert.equal(report.countBeforeRestart, report.acknowledged, 'every acknowledged document is counted');
    assert.equal(report.countAfterRestart, report.acknowledged, 'and still after a restart');
    assert.deepEqual(report.lastStatuses, report.lastStatuses.map(() => 200), 'writes are taken again once the throttle is lifted');
  });
});
