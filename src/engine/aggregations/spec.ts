/**
 * What an aggregation request asks of the engine: a tree of bucket aggregations over metric
 * aggregations, with every option already parsed and dates already resolved to epoch ms. The
 * HTTP adapter builds it from the Elasticsearch `aggs` body; formatting (keyed, format,
 * typed_keys) stays there.
 */
import type { Query } from '../../query/index.js';
import type { SortKey } from '../search/types.js';

export type StatsKind = 'avg' | 'sum' | 'min' | 'max' | 'stats' | 'extended_stats' | 'value_count';

/** A value for docs without the field: a number for numeric and date fields, a string for keywords. */
export type MissingValue = number | string;

export interface StatsSpec {
  type: StatsKind;
  name: string;
  field: string;
  missing?: MissingValue;
}

export interface CardinalitySpec {
  type: 'cardinality';
  name: string;
  field: string;
  /** distinct values counted exactly before the sketch takes over (Elasticsearch default 3000) */
  precisionThreshold: number;
  missing?: MissingValue;
}

export interface PercentilesSpec {
  type: 'percentiles';
  name: string;
  field: string;
  /** in 0..100 */
  percents: number[];
  missing?: MissingValue;
}

export interface TopHitsSpec {
  type: 'top_hits';
  name: string;
  from: number;
  size: number;
  /** empty: the search default, newest first */
  sort: SortKey[];
}

export type MetricSpec = StatsSpec | CardinalitySpec | PercentilesSpec | TopHitsSpec;

/** One criterion of a bucket order; buckets tie-break on the key ascending. */
export type BucketOrder =
  | { by: '_count' | '_key'; desc: boolean }
  /** a sub-aggregation value: `path` walks single-bucket aggs down to the last name; `metric` picks a value of a multi-value metric */
  | { by: 'path'; path: string[]; metric?: string; desc: boolean };

export type TermFilter =
  | { kind: 'regex'; regex: RegExp }
  | { kind: 'values'; values: ReadonlySet<string> }
  | { kind: 'partition'; partition: number; numPartitions: number };

export interface TermsSpec {
  type: 'terms';
  name: string;
  field: string;
  size: number;
  /** per index; undefined: `size` for a single index, else size * 1.5 + 10 (as Elasticsearch) */
  shardSize?: number;
  minDocCount: number;
  shardMinDocCount: number;
  order: BucketOrder[];
  missing?: MissingValue;
  include?: TermFilter;
  exclude?: TermFilter;
  showTermDocCountError: boolean;
  aggs: AggSpec[];
}

export interface Bounds {
  min?: number;
  max?: number;
}

export interface HistogramSpec {
  type: 'histogram';
  name: string;
  field: string;
  interval: number;
  offset: number;
  minDocCount: number;
  extendedBounds?: Bounds;
  hardBounds?: Bounds;
  order: BucketOrder[];
  missing?: number;
  aggs: AggSpec[];
}

export type CalendarUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

export type DateInterval = { kind: 'fixed'; ms: number } | { kind: 'calendar'; unit: CalendarUnit };

export interface DateHistogramSpec {
  type: 'date_histogram';
  name: string;
  field: string;
  interval: DateInterval;
  /** shifts bucket starts by this many ms */
  offset: number;
  /** `UTC`, `+01:00` or an IANA zone name: buckets start on this zone's clock */
  timeZone: string;
  minDocCount: number;
  extendedBounds?: Bounds;
  hardBounds?: Bounds;
  order: BucketOrder[];
  missing?: number;
  aggs: AggSpec[];
}

export interface RangeSpec {
  type: 'range';
  name: string;
  field: string;
  /** from inclusive, to exclusive; the engine sorts them by from, then to, as Elasticsearch */
  ranges: Array<{ key?: string; from?: number; to?: number }>;
  missing?: number;
  aggs: AggSpec[];
}

export interface FilterSpec {
  type: 'filter';
  name: string;
  query: Query;
  aggs: AggSpec[];
}

export interface FiltersSpec {
  type: 'filters';
  name: string;
  filters: Array<{ key: string; query: Query }>;
  /** key of the bucket of docs matching no filter; absent: no such bucket */
  otherBucketKey?: string;
  aggs: AggSpec[];
}

export interface MissingSpec {
  type: 'missing';
  name: string;
  field: string;
  aggs: AggSpec[];
}

export type BucketSpec = TermsSpec | HistogramSpec | DateHistogramSpec | RangeSpec | FilterSpec | FiltersSpec | MissingSpec;

export type AggSpec = MetricSpec | BucketSpec;

export function isBucketSpec(spec: AggSpec): spec is BucketSpec {
  return 'aggs' in spec;
}
