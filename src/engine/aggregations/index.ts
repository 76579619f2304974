/**
 * Aggregations over the docs a query matches, read from columns (numeric values, keyword
 * ordinals, presence), never from `_source` (only top_hits reads the sources of its few hits).
 * Per segment, collectors fill typed arrays indexed by bucket ordinal; their partial results
 * merge exactly across segments, are cut per index like an Elasticsearch shard, then finalized.
 * Memory is charged to a per-node breaker before it is allocated (docs/aggregations.md).
 */
export { AggregationService, validateAggregations } from './execute.js';
export type { AggregationRequest, AggregationServiceOptions } from './execute.js';
export { AggregationBreaker, AggregationMemory } from './memory.js';
export { AggregationCache } from './cache.js';
export { TimeZone } from './time-zone.js';
export { MAX_TOP_HITS_WINDOW } from './collectors/index.js';
export { DEFAULT_PRECISION_THRESHOLD, MAX_PRECISION_THRESHOLD } from './sketches/hyperloglog.js';
export { RELATIVE_ACCURACY, EXACT_LIMIT } from './sketches/quantile-sketch.js';
export type {
  AggSpec,
  BucketOrder,
  BucketSpec,
  Bounds,
  CalendarUnit,
  CardinalitySpec,
  DateHistogramSpec,
  DateInterval,
  FilterSpec,
  FiltersSpec,
  HistogramSpec,
  MetricSpec,
  MissingSpec,
  MissingValue,
  PercentilesSpec,
  RangeSpec,
  StatsKind,
  StatsSpec,
  TermFilter,
  TermsSpec,
  TopHitsSpec,
} from './spec.js';
export type {
  AggResult,
  Bucket,
  CardinalityResult,
  FiltersResult,
  HistogramResult,
  PercentilesResult,
  RangeBucket,
  RangeResult,
  SingleBucketResult,
  StatsResult,
  TermsResult,
  TopHit,
  TopHitsResult,
} from './result.js';
export type { ValueKind } from './partial.js';
export type { PartialWire } from './wire.js';
