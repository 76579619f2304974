/**
 * Final aggregation results, one per requested aggregation and in the same order as the specs
 * (sub-results likewise follow their spec's `aggs`). Plain values: the HTTP adapter renders them
 * in the Elasticsearch shape.
 */
import type { StatsKind } from './spec.js';
import type { ValueKind } from './partial.js';

export interface StatsResult {
  kind: 'stats';
  type: StatsKind;
  count: number;
  sum: number;
  /** Infinity / -Infinity when there were no values */
  min: number;
  max: number;
  sumOfSquares: number;
  valueKind: ValueKind | null;
}

export interface CardinalityResult {
  kind: 'cardinality';
  value: number;
}

export interface PercentilesResult {
  kind: 'percentiles';
  /** in the requested order; null values when there were no values */
  values: Array<{ percent: number; value: number | null }>;
  valueKind: ValueKind | null;
}

export interface TopHit {
  index: string;
  /** the `_id` as a decimal string */
  id: string;
  /** the stored document, JSON object text */
  source: string;
  sortValues: Array<number | string | null>;
}

export interface TopHitsResult {
  kind: 'top_hits';
  total: number;
  hits: TopHit[];
}

export interface Bucket {
  key: number | string;
  docCount: number;
  /** terms with show_term_doc_count_error */
  docCountError?: number;
  subs: AggResult[];
}

export interface TermsResult {
  kind: 'terms';
  /** null when no targeted segment has the field */
  valueKind: ValueKind | null;
  docCountErrorUpperBound: number;
  sumOtherDocCount: number;
  buckets: Bucket[];
}

export interface HistogramResult {
  kind: 'histogram';
  valueKind: ValueKind | null;
  buckets: Bucket[];
}

export interface RangeBucket {
  /** the key given in the request, if any */
  key?: string;
  /** absent when open */
  from?: number;
  to?: number;
  docCount: number;
  subs: AggResult[];
}

export interface RangeResult {
  kind: 'range';
  valueKind: ValueKind | null;
  buckets: RangeBucket[];
}

export interface SingleBucketResult {
  kind: 'single';
  docCount: number;
  subs: AggResult[];
}

export interface FiltersResult {
  kind: 'filters';
  buckets: Array<{ key: string; docCount: number; subs: AggResult[] }>;
}

export type AggResult =
  | StatsResult
  | CardinalityResult
  | PercentilesResult
  | TopHitsResult
  | TermsResult
  | HistogramResult
  | RangeResult
  | SingleBucketResult
  | FiltersResult;
