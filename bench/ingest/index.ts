/**
 * Ingest measurement: the corpus cut into `_bulk` bodies up front, then sent with a fixed
 * number of concurrent requests while throughput is timed, then flushed; optionally the same at
 * several concurrencies on fresh services first; and the compaction that makes the files compact.
 */
export { buildBulkBodies, type BulkBodies } from './bulk-bodies.js';
export { loadBulk, throughput, type IngestOptions, type IngestResult, type Throughput } from './bulk-loader.js';
export { flushIndex, flushed, ingestUntilFlushed, type FlushResult } from './flush-index.js';
export { compactIndex, type CompactionResult } from './force-merge.js';
export { sweepConcurrency, type SweepOptions, type SweepPoint } from './concurrency-sweep.js';
