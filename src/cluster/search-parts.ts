/**
 * A search spread over cache nodes: what the api role asks each node holding some of the
 * targeted indexes, what the node answers, and the merge of the answers into what one node
 * holding every index would have found. Hits merge in sort order (ties by index, then segment,
 * then document, as on one node); totals add up; aggregation partials merge and finalize with
 * the code that merges them across segments (AggregationService.reduceParts); the api role
 * merges hits with mergeSearchResults, as the query threads' parts are merged.
 */
import type { PartialWire, SearchHit } from '../engine/index.js';

export interface SearchPartRequest {
  /** every index of the search, in the order one node would search them */
  indices: string[];
  /** those the asked node answers for */
  held: string[];
  /** the URL parameters and body of the search, parsed again by the node */
  params: Record<string, string | string[]>;
  body?: Record<string, unknown>;
  /** `now` of the search, the same on every node */
  nowMs: number;
  /** send back the mappings of the held indexes (for `fields`, highlighting, sort checks) */
  withMappings: boolean;
  /**
   * A scroll: without `id`, the node pins its segments as they are now and answers with the id
   * of that view; with it, the next page of that view after the sort values `after` (the last
   * hit of the merged previous page).
   */
  scroll?: { keepAliveMs: number; id?: string; after?: unknown[] };
}

export interface SearchPartResponse {
  total: number;
  totalRelation: 'eq' | 'gte';
  maxScore: number | null;
  terminatedEarly: boolean;
  hits: SearchHit[];
  /** undefined without aggregations; null when nothing held matched */
  aggregations?: PartialWire[] | null;
  /** index → IndexMapping.toJSON() */
  mappings?: Record<string, unknown>;
  /** the node's view of a scroll opened by this request */
  scrollId?: string;
}

/**
 * Segments of one index are searched in a block of positions of their own, so that ties across
 * nodes break by index rank, then segment, then document, as on one node (positions stay below
 * 2^53 for up to 512 indexes of 4096 segments and memtables each; past that, by node order).
 */
const TARGETS_PER_INDEX = 4096;
const MAX_RANKED_INDEXES = 512;

export function targetOrder(rank: number, localIndex: number, running: number, indexCount: number): number {
  return indexCount <= MAX_RANKED_INDEXES && localIndex < TARGETS_PER_INDEX ? rank * TARGETS_PER_INDEX + localIndex : running;
}
