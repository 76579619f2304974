/**
 * Indexing threads: memtables are built off the main thread, in shared memory, and the main
 * thread searches them in place while the thread is stopped between two documents.
 *
 * Layout: messages.ts holds the messages and the control array's words; indexer-worker.ts is the
 * thread; indexer.ts starts the threads, sends writes and takes leases to read; shared-memtable.ts
 * is a thread's memtable as a SegmentReader on the main thread.
 */
export { Indexer, IndexerThread } from './indexer.js';
export { SharedMemtable } from './shared-memtable.js';
export { INDEXER_THREAD_NAME } from './messages.js';
