/**
 * Messages between the main thread and an indexing thread, and the words of the control array
 * that lets the main thread read memtables while the thread is paused.
 */
import type { IndexingJobBody } from '../ingest/index.js';
import type { MemtableSnapshot } from '../memtable/index.js';
import type { MessagePort } from 'node:worker_threads';
import type { ThreadError } from '../../common/index.js';

export const INDEXER_THREAD_NAME = 'svc-indexer';

/** The documents of one write for one memtable (see ShardWriteBatch.indexingJob). */
export interface AddJob extends IndexingJobBody {
  kind: 'add';
  requestId: number;
  memtableId: string;
}

/** No more documents for this memtable: answer with its arrays, and forget it. */
export interface FreezeJob {
  kind: 'freeze';
  requestId: number;
  memtableId: string;
}

/** The main thread waits to read: pause now if idle (see Indexer.lease). */
export interface SyncJob {
  kind: 'sync';
}

export type IndexerRequest = AddJob | FreezeJob | SyncJob;

/** What a memtable holds after a write, for flush decisions without reading it. */
export interface MemtableFigures {
  approxBytes: number;
}

export type IndexerReply =
  | { kind: 'added'; requestId: number; figures: MemtableFigures; fieldCounts: Uint32Array; tokenCounts: Uint32Array }
  | { kind: 'frozen'; requestId: number; snapshot: MemtableSnapshot | null }
  | { kind: 'failed'; requestId: number; error: ThreadError };

/** Published on the read port while the thread is paused: the arrays of memtables written since. */
export interface Publication {
  memtables: Array<{ snapshot: MemtableSnapshot; figures: MemtableFigures }>;
}

/** The control array's words (an Int32Array over a SharedArrayBuffer). */
export const CONTROL_WORDS = 4;
/** 1 while the main thread reads: the thread does not write */
export const HOLD = 0;
/** read requests made by the main thread */
export const REQUEST = 1;
/** the last request the thread answered (its publication is on the read port) */
export const ANSWERED = 2;
/**
 * Bumped by the main thread on every request and every let-go: the word the paused thread waits
 * on, read before it looks at the others, so that no change between its look and its wait is missed
 */
export const SIGNAL = 3;

export interface IndexerWorkerData {
  control: Int32Array;
  readPort: MessagePort;
}
