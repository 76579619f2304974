/**
 * What a segment writer thread is asked to do: a closed union of job kinds, each naming the
 * segment file it writes. Everything in a job crosses to the thread by structured cloning
 * (typed arrays listed by transferablesOf move without a copy); the answer is the written
 * file's SegmentFileInfo, or the error, sent as a ThreadError and rebuilt in its own class.
 *
 * A flush sends a `SnapshotJob`: the memtable's snapshot moves (its buffers transferred) and is
 * searchable on the thread again as a Memtable, which writeSegment reads like any segment.
 */
import type { TransferListItem } from 'node:worker_threads';
import type { ThreadError } from '../../common/index.js';
import type { SegmentFileInfo } from '../segment/index.js';
import { snapshotTransferables, type MemtableSnapshot } from '../memtable/index.js';

/** A segment file to read, by path, with the id its reader takes. */
export interface SegmentFileRef {
  filePath: string;
  segmentId: string;
  /** sorted doc ids of its deleted docs, which a merge leaves out */
  deleted?: Uint32Array;
}

/** Compaction: the inputs merged (in this order: their docs follow one another) into one file. */
export interface MergeJob {
  kind: 'merge';
  /** id of the merged segment */
  segmentId: string;
  inputs: readonly SegmentFileRef[];
  outputPath: string;
}

/** Flush: a memtable's snapshot (its arrays move to the thread) written as one segment file. */
export interface SnapshotJob {
  kind: 'memtable-snapshot';
  snapshot: MemtableSnapshot;
  outputPath: string;
}

export type SegmentWriteJob = MergeJob | SnapshotJob;

/** Buffers that move to the writer thread with the job instead of being copied. */
export function transferablesOf(job: SegmentWriteJob): TransferListItem[] {
  switch (job.kind) {
    case 'merge':
      return [];
    case 'memtable-snapshot':
      return snapshotTransferables(job.snapshot);
  }
}

export interface JobRequest {
  jobId: number;
  job: SegmentWriteJob;
}

export type JobReply = { jobId: number; ok: true; info: SegmentFileInfo } | { jobId: number; ok: false; error: ThreadError };

/** The name writer threads carry for the operating system (at most 15 bytes). */
export const THREAD_NAME = 'svc-seg-writer';

/** The name of the thread flushes write on. */
export const FLUSH_THREAD_NAME = 'svc-flush';
