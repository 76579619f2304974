import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { runCrashLoop } from '../../bench/faults/index.js';
import { repoRoot } from '../support/repo-root.js';

describe('crash loop (the short run of bench/crash-loop.ts)', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-crash-loop-test-'));
  after(() => fs.rmSync(workDir, { recursive: true, force: true }));

  it('after each of three SIGKILLs under writers (one resending documents with _ids and deleting some), and index churn, every acknowledged document is there once and every deleted one gone', async (t) => {
    const report = await runCrashLoop({
      repoRoot: repoRoot(),
      workDir,
      kills: 3,
      seed: 11,
      writers: 3,
      docsPerRequest: 300,
      minRunMs: 300,
      maxRunMs: 1500,
      log: (line) => t.diagnostic(line),
    });
    t.diagnostic(JSON.stringify(report));
    assert.ok(report.acknowledgedDocs > 0, 'writes were acknowledged between the kills');
    assert.equal(report.lost, 0, 'acknowledged documents lost');
    assert.equal(report.duplicated, 0, 'documents stored twice');
    assert.equal(report.unknown, 0, 'documents nobody sent');
    assert.equal(report.resurrectedIndexes, 0, 'deleted indexes back after a restart');
    assert.ok(report.deletedDocs > 0, 'documents were deleted by _id between the kills');
    assert.equal(report.resurrectedDocs, 0, 'documents deleted by _id back after a restart');
  });
});
