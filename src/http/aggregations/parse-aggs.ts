/**
 * The `aggs` body of a search → engine aggregation specs, plus a parallel tree of views holding
 * what only rendering needs (Elasticsearch type name, keyed, format, time zone, meta).
 */
import { ParsingError } from '../../common/index.js';
import type { AggSpec } from '../../engine/aggregations/index.js';
import { TimeZone } from '../../engine/aggregations/index.js';
import type { SourceFilter } from '../search/source-filter.js';
import { isObject } from './parse-common.js';
import { parseBucketAgg, BUCKET_TYPES } from './parse-buckets.js';
import { parseMetricAgg, METRIC_TYPES } from './parse-metrics.js';

export interface AggView {
  name: string;
  /** the Elasticsearch type as requested (`date_range` stays `date_range`) */
  type: string;
  keyed: boolean;
  format?: string;
  /** zone of dates printed as strings */
  zone: TimeZone;
  meta?: unknown;
  /** extended_stats: width of std_deviation_bounds */
  sigma: number;
  /** top_hits */
  source?: SourceFilter;
  explicitSort: boolean;
  subs: AggView[];
}

export interface ParsedAggregations {
  specs: AggSpec[];
  views: AggView[];
}

/** What a parser of one aggregation kind returns. */
export interface ParsedAgg {
  spec: AggSpec;
  view: Omit<AggView, 'name' | 'type' | 'subs' | 'meta'>;
}

export interface ParseContext {
  nowMs: number;
}

/** Elasticsearch aggregations this service does not offer: a 400 that names them. */
const KNOWN_UNSUPPORTED = new Set([
  'composite', 'auto_date_histogram', 'significant_terms', 'significant_text', 'rare_terms', 'nested', 'reverse_nested',
  'global', 'sampler', 'diversified_sampler', 'adjacency_matrix', 'geohash_grid', 'geotile_grid', 'geo_bounds',
  'geo_centroid', 'ip_range', 'variable_width_histogram', 'multi_terms', 'percentile_ranks', 'median_absolute_deviation',
  'weighted_avg', 'scripted_metric', 'string_stats', 'boxplot', 'rate', 't_test', 'top_metrics', 'matrix_stats',
  'avg_bucket', 'sum_bucket', 'min_bucket', 'max_bucket', 'stats_bucket', 'extended_stats_bucket', 'percentiles_bucket',
  'derivative', 'cumulative_sum', 'cumulative_cardinality', 'moving_avg', 'moving_fn', 'bucket_script', 'bucket_selector',
  'bucket_sort', 'serial_diff', 'inference', 'normalize',
]);

export function parseAggregations(body: unknown, ctx: ParseContext): ParsedAggregations {
  if (!isObject(body)) throw new ParsingError('[aggs] must be an object', {}, 'x_content_parse_exception');
  const specs: AggSpec[] = [];
  const views: AggView[] = [];
  for (const [name, value] of Object.entries(body)) {
    const { spec, view } = parseOne(name, value, ctx);
    specs.push(spec);
    views.push(view);
  }
  return { specs, views };
}

function parseOne(name: string, value: unknown, ctx: ParseContext): { spec: AggSpec; view: AggView } {
  if (/[[\]>]/.test(name)) {
    throw new ParsingError(`Invalid aggregation name [${name}]. Aggregation names can contain any character except '[', ']', and '>'`);
  }
  if (!isObject(value)) throw new ParsingError(`Expected [START_OBJECT] under [${name}], but got a [${Array.isArray(value) ? 'START_ARRAY' : 'VALUE'}] in [${name}]`);
  let type: string | undefined;
  let typeBody: unknown;
  let subsBody: unknown;
  let meta: unknown;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'aggs' || key === 'aggregations') {
      if (subsBody !== undefined) throw new ParsingError(`Found two sub aggregation definitions under [${name}]`);
      subsBody = v;
    } else if (key === 'meta') {
      if (!isObject(v)) throw new ParsingError(`[meta] of aggregation [${name}] must be an object`);
      meta = v;
    } else {
      if (type !== undefined) throw new ParsingError(`Found two aggregation type definitions in [${name}]: [${type}] and [${key}]`);
      type = key;
      typeBody = v;
    }
  }
  if (type === undefined) throw new ParsingError(`Missing definition for aggregation [${name}]`);
  const subs = subsBody === undefined ? { specs: [], views: [] } : parseAggregations(subsBody, ctx);

  let parsed: ParsedAgg;
  if (METRIC_TYPES.has(type)) {
    if (subs.specs.length > 0) {
      throw new ParsingError(`Aggregator [${name}] of type [${type}] cannot accept sub-aggregations`, {}, 'aggregation_initialization_exception');
    }
    parsed = parseMetricAgg(type, name, typeBody, ctx);
  } else if (BUCKET_TYPES.has(type)) {
    parsed = parseBucketAgg(type, name, typeBody, subs.specs, ctx);
  } else if (KNOWN_UNSUPPORTED.has(type)) {
    throw new ParsingError(`aggregation type [${type}] of [${name}] is not supported by this server`, {}, 'illegal_argument_exception');
  } else {
    throw new ParsingError(`Unknown aggregation type [${type}]`);
  }
  const view: AggView = { ...parsed.view, name, type, subs: subs.views, ...(meta === undefined ? {} : { meta }) };
  return { spec: parsed.spec, view };
}
