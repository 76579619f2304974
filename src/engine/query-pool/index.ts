/**
 * Query threads: searches over segment files run on worker threads (SVC_QUERY_THREADS of them)
 * while the main thread searches the memtables; a thread past the hard query timeout is
 * terminated. Threads open segment files by path and keep them open, least recently used first out.
 * Whole searches are admitted a few at a time, with a bounded queue and 429 past it.
 */
export { QueryPool, NO_QUERY_POOL_EVENTS } from './query-pool.js';
export type { QueryPoolEvents, QueryPoolOptions } from './query-pool.js';
export { SearchAdmission, type SearchAdmissionOptions } from './admission.js';
