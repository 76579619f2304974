/**
 * The write path from request bytes to memtable: the document scanner (the fast path for flat
 * log documents), the per-index batch of a write, and the write-ahead log record format.
 */
export { DocumentScanner, type ScannedDocument } from './scan-document.js';
export { FieldSlots } from './field-slots.js';
export { ShardWriteBatch, type IndexingJobBody } from './shard-write-batch.js';
export { WalRecordReader } from './wal-record.js';
