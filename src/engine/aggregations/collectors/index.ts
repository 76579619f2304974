/**
 * Collectors of every aggregation kind, built from the spec for one segment. See
 * ../collector.ts for how docs and bucket ordinals flow through them.
 */
import type { Collector, SegmentContext } from '../collector.js';
import type { AggSpec } from '../spec.js';
import { CardinalityCollector } from './cardinality.js';
import { FiltersCollector, SingleBucketCollector } from './filters.js';
import { HistogramCollector } from './histogram.js';
import { PercentilesCollector } from './percentiles.js';
import { RangeCollector } from './range.js';
import { StatsCollector } from './stats.js';
import { TermsCollector } from './terms.js';
import { TopHitsCollector } from './top-hits.js';

export function createCollector(spec: AggSpec, ctx: SegmentContext, singleParent: boolean): Collector {
  switch (spec.type) {
    case 'avg':
    case 'sum':
    case 'min':
    case 'max':
    case 'stats':
    case 'extended_stats':
    case 'value_count':
      return new StatsCollector(spec, ctx);
    case 'cardinality':
      return new CardinalityCollector(spec, ctx);
    case 'percentiles':
      return new PercentilesCollector(spec, ctx);
    case 'top_hits':
      return new TopHitsCollector(spec, ctx);
    case 'terms':
      return new TermsCollector(spec, ctx, singleParent);
    case 'histogram':
    case 'date_histogram':
      return new HistogramCollector(spec, ctx);
    case 'range':
      return new RangeCollector(spec, ctx);
    case 'filter':
    case 'missing':
      return new SingleBucketCollector(spec, ctx, singleParent);
    case 'filters':
      return new FiltersCollector(spec, ctx);
  }
}

export { roundingOf } from './histogram.js';
export { sortedRanges, type SortedRange } from './range.js';
export { MAX_TOP_HITS_WINDOW } from './top-hits.js';
