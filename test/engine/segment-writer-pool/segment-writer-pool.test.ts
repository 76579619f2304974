import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { CorruptionError, ServiceUnavailableError } from '../../../src/common/index.js';
import { Memtable } from '../../../src/engine/memtable/index.js';
import { mergeSegments, openSegment, writeSegment } from '../../../src/engine/segment/index.js';
import { SegmentWriterPool, type MergeJob, type SegmentFileRef } from '../../../src/engine/segment-writer-pool/index.js';
import { assertSameSegment } from '../segment/assert-segment.js';
import { generateLogs } from '../segment/log-corpus.js';
import { stopNextThreadWhileWriting } from '../../support/writer-thread.js';

const logger = pino({ level: 'silent' });

describe('segment writer threads', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-writer-pool-'));
  const inputs: SegmentFileRef[] = [];
  let outputs = 0;
  const output = () => path.join(dir, `out-${outputs++}.seg`);
  const mergeJob = (refs: readonly SegmentFileRef[], outputPath = output()): MergeJob => ({ kind: 'merge', segmentId: `merged-${outputs}`, inputs: refs, outputPath });
  /** no merged file, finished or partial, is left in the directory */
  const onlyInputsLeft = () => assert.deepEqual(fs.readdirSync(dir).filter((f) => f.startsWith('out-') && !isKept(f)), []);
  const kept = new Set<string>();
  const isKept = (f: string) => kept.has(f);

  before(async () => {
    const parts = [
      generateLogs(3_000, { seed: 31, rich: true }),
      generateLogs(2_000, { seed: 32, rich: true, startTs: 1_700_100_000_000, startLid: 3_001, startId: 7_200_000_000_000_000_000n }),
      generateLogs(1_000, { seed: 33, startTs: 1_700_200_000_000, startLid: 5_001, startId: 7_300_000_000_000_000_000n }),
    ];
    for (const [i, docs] of parts.entries()) {
      const m = new Memtable(`in-${i}`);
      for (const d of docs) m.add(d);
      const filePath = path.join(dir, `in-${i}.seg`);
      await writeSegment(m, filePath);
      inputs.push({ filePath, segmentId: `in-${i}` });
    }
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the same merged file as a merge on this thread', async () => {
    const pool = new SegmentWriterPool({ logger });
    try {
      assert.equal(pool.size, 0, 'no thread before the first job');
      const job = mergeJob(inputs);
      const info = await pool.run(job);
      kept.add(path.basename(job.outputPath));
      assert.equal(pool.size, 1);
      assert.equal(info.numDocs, 6_000);

      const readers = inputs.map((r) => openSegment(r.filePath, r.segmentId));
      const here = path.join(dir, 'here.seg');
      try {
        const hereInfo = await writeSegment(mergeSegments(job.segmentId, readers), here);
        assert.deepEqual({ ...info, id: '' }, { ...hereInfo, id: '' });
        assert.ok(fs.readFileSync(job.outputPath).equals(fs.readFileSync(here)), 'byte for byte the same file');
        const fromThread = openSegment(job.outputPath, job.segmentId);
        const merged = mergeSegments(job.segmentId, readers);
        try {
          assertSameSegment(fromThread, merged);
        } finally {
          fromThread.close();
        }
      } finally {
        for (const r of readers) r.close();
      }
    } finally {
      await pool.close();
    }
  });

  it('fails a job with a corrupt input as a CorruptionError naming the file, leaves no output, and keeps working', async () => {
    const bad = path.join(dir, 'corrupt.seg');
    const bytes = Buffer.from(fs.readFileSync(inputs[0]!.filePath));
    // inside the first doc-store block, just past the header: the footer still opens, the merge
    // fails when it reads the block
    bytes[64]! ^= 0x5a;
    fs.writeFileSync(bad, bytes);
    const pool = new SegmentWriterPool({ logger });
    try {
      await assert.rejects(pool.run(mergeJob([{ filePath: bad, segmentId: 'bad' }, inputs[1]!])), (err: unknown) => {
        assert.ok(err instanceof CorruptionError, `a CorruptionError, not ${String(err)}`);
        assert.equal(err.type, 'corrupt_index_exception');
        assert.equal(err.status, 500);
        assert.equal(err.details.file, bad);
        assert.ok(err.message.includes(bad), 'names the file');
        return true;
      });
      onlyInputsLeft();
      const job = mergeJob(inputs.slice(1));
      assert.equal((await pool.run(job)).numDocs, 3_000, 'the thread takes the next job');
      kept.add(path.basename(job.outputPath));
      await assert.rejects(pool.run(mergeJob([{ filePath: path.join(dir, 'missing.seg'), segmentId: 'missing' }])), (err: unknown) => {
        assert.equal((err as NodeJS.ErrnoException).code, 'ENOENT', 'a system error keeps its code');
        return true;
      });
    } finally {
      await pool.close();
    }
  });

  it('fails the job of a thread that dies, leaves no output, and replaces the thread', async () => {
    const pool = new SegmentWriterPool({ logger });
    try {
      // big enough that the thread is still writing when it is stopped
      const big = Array.from({ length: 30 }, (_, i) => inputs[i % 3]!);
      const stop = stopNextThreadWhileWriting(dir);
      const job = mergeJob(big);
      const failed = assert.rejects(pool.run(job), (err: unknown) => {
        assert.ok(err instanceof Error);
        assert.match(err.message, /segment writer thread stopped \(exit code 1\) while writing/);
        return true;
      });
      assert.equal(await stop.stopped, `${path.basename(job.outputPath)}.tmp`);
      await failed;
      assert.equal(pool.size, 0, 'the dead thread is gone');
      onlyInputsLeft();
      const next = mergeJob([inputs[2]!]);
      assert.equal((await pool.run(next)).numDocs, 1_000, 'a new thread takes the next job');
      kept.add(path.basename(next.outputPath));
      assert.equal(pool.size, 1);
    } finally {
      await pool.close();
    }
  });

  it('runs one job per thread and queues the rest', async () => {
    const pool = new SegmentWriterPool({ logger, threads: 2 });
    try {
      const jobs = Array.from({ length: 5 }, (_, i) => mergeJob([inputs[i % 3]!]));
      const infos = await Promise.all(jobs.map((j) => pool.run(j)));
      for (const j of jobs) kept.add(path.basename(j.outputPath));
      assert.deepEqual(infos.map((i) => i.numDocs), [3_000, 2_000, 1_000, 3_000, 2_000]);
      assert.equal(pool.size, 2, 'no more threads than asked');
      await pool.release();
      assert.equal(pool.size, 0, 'release stops the idle threads');
      const again = mergeJob([inputs[2]!]);
      assert.equal((await pool.run(again)).numDocs, 1_000, 'and the next job starts one again');
      kept.add(path.basename(again.outputPath));
    } finally {
      await pool.close();
    }
  });

  it('on close fails the running and queued jobs, cleans their output, and refuses new ones', async () => {
    const pool = new SegmentWriterPool({ logger });
    const big = Array.from({ length: 6 }, (_, i) => inputs[i % 3]!);
    const running = assert.rejects(pool.run(mergeJob(big)), ServiceUnavailableError);
    const queued = assert.rejects(pool.run(mergeJob(big)), ServiceUnavailableError);
    await pool.close();
    await running;
    await queued;
    await assert.rejects(pool.run(mergeJob(inputs)), ServiceUnavailableError);
    assert.equal(pool.size, 0);
    onlyInputsLeft();
  });
});
