/**
 * The in-memory segment (memtable): the write side of a cache node's index, searchable through
 * the `SegmentReader` interface as soon as `add` returns. Terms live in a byte-keyed hash
 * (TermHash), postings in shared Uint32 arenas (doc ids, and for text positions plus per-doc
 * offsets), columns as sparse typed lists made dense on demand, sources as UTF-8 in chunked
 * Buffers. Documents come as IndexedDocuments or scanned straight from their JSON bytes.
 * Flushed to a segment file by src/engine/segment.
 */
export { Memtable, POSITION_GAP, snapshotTransferables, type MemtableSnapshot } from './memtable.js';
export type { FieldSlot, ScannedValues } from './scanned-docs.js';
export { TermHash, hashBytes } from './term-hash.js';
export { grown } from './growable.js';
export { shareMemtableMemory, sharedBytesAllocated } from './memory.js';
