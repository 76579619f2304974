/**
 * Collectors: one per aggregation per segment. Matching docs arrive in batches with, for each
 * doc, the ordinal of the parent bucket it falls in (null: all in bucket 0). Bucket collectors
 * give each doc its own bucket ordinal and pass the batch on to their sub-collectors; metric
 * collectors keep typed arrays indexed by bucket ordinal. After the last batch, `result(p)`
 * builds the partial of parent bucket p. Working arrays are charged to the segment's scope;
 * partials, which outlive the segment, to the request.
 */
import type { Query } from '../../query/index.js';
import type { SegmentReader } from '../segment-reader.js';
import type { AggregationMemory, MemoryScope } from './memory.js';
import type { Partial } from './partial.js';
import type { AggSpec } from './spec.js';

/** Docs handed to collectors at a time; also the size of their scratch arrays. */
export const BATCH = 4096;

/** A parent ordinal no doc was collected under: results are empty. */
export const NO_BUCKET = -1;

export interface Collector {
  collect(docs: Uint32Array, parents: Int32Array | null, n: number): void;
  result(parent: number): Partial;
}

export interface SegmentContext {
  segment: SegmentReader;
  index: string;
  /** docs at or above this id are not visible */
  limit: number;
  /** position of the segment among the request's targets */
  segmentOrder: number;
  nowMs: number;
  /** working memory of this segment's collectors, given back after the segment */
  scope: MemoryScope;
  /** the request's account, for partials */
  memory: AggregationMemory;
  /** sorted ids of the docs of this segment matching `query` */
  match(query: Query): Uint32Array;
  /** throws QueryTimeoutError once past the deadline */
  checkDeadline(): void;
  /**
   * A collector for a sub-aggregation. `singleParent`: every doc it sees belongs to bucket 0
   * (it sits under single-bucket aggregations only), so dense per-key arrays can stand in for
   * the (parent, key) table.
   */
  create(spec: AggSpec, singleParent: boolean): Collector;
}

/** Largest parent ordinal in a batch (0 when parents is null). */
export function maxParent(parents: Int32Array | null, n: number): number {
  if (parents === null) return 0;
  let max = 0;
  for (let i = 0; i < n; i++) if (parents[i]! > max) max = parents[i]!;
  return max;
}
