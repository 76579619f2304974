/**
 * What a search asks of the engine and what it gets back. The HTTP adapter converts the
 * Elasticsearch request into a SearchRequest and the SearchResult back into the ES response.
 */
import type { Query } from '../../query/index.js';
import type { SegmentReader } from '../segment-reader.js';

export type SortOrder = 'asc' | 'desc';

export interface SortKey {
  /** a field name, or `_score`, `_doc` (insertion order), `_ts` */
  field: string;
  order: SortOrder;
  /** where docs without a value go: `_last` (default) or `_first` */
  missing?: '_first' | '_last';
}

/** One segment to search, with the index it belongs to. */
export interface SearchTarget {
  index: string;
  segment: SegmentReader;
  /**
   * Only docs below this id are visible (a consistent snapshot of a segment that keeps
   * growing, for scrolls). Defaults to segment.numDocs at the start of the search.
   */
  docLimit?: number;
  /**
   * Position of this segment in the whole search (ties go by it, `_doc` sort values encode it);
   * defaults to the target's place in the list. Set when a search is split across threads.
   */
  order?: number;
  /** for segment files: the file, so that a query thread can open it on its own */
  filePath?: string;
  /** sorted doc ids of deleted and replaced docs, which no search shows */
  deleted?: Uint32Array;
}

export interface SearchRequest {
  query: Query;
  from: number;
  size: number;
  /** empty means the default order: `_ts` descending, then `_doc` descending (newest first) */
  sort: SortKey[];
  /** true: exact total; false: no total needed; a number: exact up to that many, then `gte` */
  trackTotalHits: boolean | number;
  /** continue after the hit with these sort values (same length as the effective sort) */
  searchAfter?: readonly unknown[];
  /** stop collecting after this many matching docs per segment */
  terminateAfter?: number;
  /** absolute time (Date.now() scale) after which the search stops with a timeout error */
  deadlineMs?: number;
  /** `now` for date math in the query, epoch ms; defaults to Date.now() */
  nowMs?: number;
}

export interface SearchHit {
  index: string;
  /** the `_id`: a generated id as a decimal string, or the text a client gave */
  id: string;
  /** the stored document, JSON object text (without the identity members of a client `_id`) */
  source: string;
  score: number | null;
  /** the values of the effective sort keys for this hit (numbers, strings or null) */
  sortValues: Array<number | string | null>;
  /** segment order × 2^32 + doc id: the tie-breaker when merging results of split searches */
  position?: number;
}

export interface SearchResult {
  total: number;
  totalRelation: 'eq' | 'gte';
  maxScore: number | null;
  hits: SearchHit[];
  /** true when terminate_after cut the collection short */
  terminatedEarly: boolean;
  /** how the segments were visited */
  stats?: SearchStats;
}

export interface SearchStats {
  /** segments planned and evaluated */
  segmentsSearched: number;
  /** segments ruled out by their `_ts` range (or empty) without reading any column */
  segmentsSkipped: number;
}
