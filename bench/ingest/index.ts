/**
 * Ingest measurement: the corpus cut into `_bulk` bodies up front, then sent with a fixed
 * number of concurrent requests while throughput is timed.
 */
export { buildBulkBodies, type BulkBodies } from './bulk-bodies.js';
export { loadBulk, type IngestOptions, type IngestResult, type Throughput } from './bulk-loader.js';
