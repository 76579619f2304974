/**
 * What the engine needs from the coordinator's catalog: the indexes it should serve, and a
 * durable place to commit the segments it flushes. The node wires this to the metastore; the
 * engine never sees SQL.
 */
import type { SegmentRecord } from '../../metastore/segments.js';

export interface IndexRecord {
  name: string;
  uuid: string;
  createdAtMs: number;
  /** the index mapping as persisted (IndexMapping.toJSON()) */
  mappings: unknown;
  settings: Record<string, unknown>;
}

/** A committed segment file, as the metastore keeps it (one record type for both sides). */
export type { SegmentRecord };

export interface EngineCatalog {
  listIndexes(): Promise<IndexRecord[]>;
  /** Creates the index record; fails with ResourceExistsError when the name is taken. */
  createIndex(record: IndexRecord): Promise<void>;
  deleteIndex(name: string): Promise<void>;
  listSegments(index: string): Promise<SegmentRecord[]>;
  /** Commits a flushed segment and the mapping it was written with, atomically enough that a crash leaves either both or neither. */
  commitSegment(segment: SegmentRecord, mappings: unknown): Promise<void>;
  /** Swaps compacted segments for their replacement in one step. */
  replaceSegments(index: string, removedIds: string[], added: SegmentRecord): Promise<void>;
  updateMappings(index: string, mappings: unknown): Promise<void>;
  /** Sets the deleted `_lid`s of live segments of an index. */
  updateDeletedLids(index: string, changes: ReadonlyArray<{ segmentId: string; deletedLids: readonly number[] }>): Promise<void>;
}
