/**
 * Segment writer threads: writing a segment file (Brotli, postings encoding) runs here, off the
 * main thread, so that intake keeps its event loop; the first job kind is a compaction merge.
 *
 * Layout: jobs.ts is the closed union of job kinds and the messages; run-job.ts carries out a job
 * (inputs opened by path, writeSegment, inputs closed); segment-writer-worker.ts is the thread;
 * segment-writer-pool.ts queues jobs, starts threads on demand and replaces a thread that dies.
 *
 * One thread by default: the compactor runs one merge at a time, and on a small machine a
 * second writer would take CPU from the main thread, which limits ingest. When flushes move here
 * too, a flush should not wait behind a long merge: give it a thread of its own then.
 */
export { SegmentWriterPool } from './segment-writer-pool.js';
export type { SegmentWriterPoolOptions } from './segment-writer-pool.js';
export { runJob } from './run-job.js';
export { THREAD_NAME, FLUSH_THREAD_NAME } from './jobs.js';
export type { SegmentWriteJob, MergeJob, SegmentFileRef } from './jobs.js';
