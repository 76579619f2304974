/**
 * Metric aggregations: avg, sum, min, max, stats, extended_stats, value_count, cardinality,
 * percentiles, top_hits.
 */
import { BadRequestError, ParsingError } from '../../common/index.js';
import {
  DEFAULT_PRECISION_THRESHOLD,
  MAX_PRECISION_THRESHOLD,
  TimeZone,
  type MissingValue,
  type StatsKind,
} from '../../engine/aggregations/index.js';
import type { SortKey } from '../../engine/index.js';
import { parseSourceFilter } from '../search/source-filter.js';
import type { ParseContext, ParsedAgg } from './parse-aggs.js';
import { boolOf, eachOption, intOf, invalid, isObject, missingOf, numberOf, objectOf, stringOf, type Json } from './parse-common.js';

export const METRIC_TYPES = new Set(['avg', 'sum', 'min', 'max', 'stats', 'extended_stats', 'value_count', 'cardinality', 'percentiles', 'top_hits']);

const DEFAULT_PERCENTS = [1, 5, 25, 50, 75, 95, 99];
const UTC = TimeZone.UTC;

function requireField(type: string, name: string, field: string | undefined): string {
  if (field === undefined) {
    throw new BadRequestError(`Required one of fields [field, script], but none were specified. in [${name}] of type [${type}]`);
  }
  return field;
}

export function parseMetricAgg(type: string, name: string, raw: unknown, _ctx: ParseContext): ParsedAgg {
  const body = objectOf(type, name, raw);
  switch (type) {
    case 'percentiles':
      return percentiles(name, body);
    case 'cardinality':
      return cardinality(name, body);
    case 'top_hits':
      return topHits(name, body);
    default:
      return stats(type as StatsKind, name, body);
  }
}

function stats(type: StatsKind, name: string, body: Json): ParsedAgg {
  let field: string | undefined;
  let missing: MissingValue | undefined;
  let format: string | undefined;
  let sigma = 2;
  eachOption(type, body, {
    field: (v) => (field = stringOf(type, 'field', v)),
    missing: (v) => (missing = missingOf(type, v)),
    format: (v) => (format = stringOf(type, 'format', v)),
    ...(type === 'extended_stats'
      ? {
          sigma: (v) => {
            sigma = numberOf(type, 'sigma', v);
            if (sigma < 0) throw new BadRequestError(`[sigma] must be greater than or equal to 0. Found [${sigma}] in [${name}]`);
          },
        }
      : {}),
  });
  return {
    spec: { type, name, field: requireField(type, name, field), ...(missing === undefined ? {} : { missing }) },
    view: { keyed: false, zone: UTC, sigma, explicitSort: false, ...(format === undefined ? {} : { format }) },
  };
}

function cardinality(name: string, body: Json): ParsedAgg {
  let field: string | undefined;
  let missing: MissingValue | undefined;
  let threshold = DEFAULT_PRECISION_THRESHOLD;
  eachOption('cardinality', body, {
    field: (v) => (field = stringOf('cardinality', 'field', v)),
    missing: (v) => (missing = missingOf('cardinality', v)),
    precision_threshold: (v) => {
      threshold = intOf('cardinality', 'precision_threshold', v);
      if (threshold < 0) throw new BadRequestError(`[precision_threshold] must be greater than or equal to 0. Found [${threshold}] in [${name}]`);
      threshold = Math.min(threshold, MAX_PRECISION_THRESHOLD);
    },
    format: () => undefined,
  });
  return {
    spec: { type: 'cardinality', name, field: requireField('cardinality', name, field), precisionThreshold: threshold, ...(missing === undefined ? {} : { missing }) },
    view: { keyed: false, zone: UTC, sigma: 2, explicitSort: false },
  };
}

function percentiles(name: string, body: Json): ParsedAgg {
  let field: string | undefined;
  let missing: MissingValue | undefined;
  let percents = DEFAULT_PERCENTS;
  let keyed = true;
  let format: string | undefined;
  eachOption('percentiles', body, {
    field: (v) => (field = stringOf('percentiles', 'field', v)),
    missing: (v) => (missing = missingOf('percentiles', v)),
    keyed: (v) => (keyed = boolOf('percentiles', 'keyed', v)),
    format: (v) => (format = stringOf('percentiles', 'format', v)),
    percents: (v) => {
      const list = Array.isArray(v) ? v : [v];
      percents = list.map((p) => {
        const n = numberOf('percentiles', 'percents', p);
        if (n < 0 || n > 100) throw new BadRequestError(`percent must be in [0,100], got [${n}]: [${name}]`);
        return n;
      });
      if (percents.length === 0) throw new BadRequestError(`[percents] must not be empty: [${name}]`);
    },
    // the sketch is ours either way: tdigest and hdr settings are accepted and do not change it
    tdigest: (v) => void objectOf('percentiles', 'tdigest', v),
    hdr: (v) => void objectOf('percentiles', 'hdr', v),
  });
  return {
    spec: { type: 'percentiles', name, field: requireField('percentiles', name, field), percents, ...(missing === undefined ? {} : { missing }) },
    view: { keyed, zone: UTC, sigma: 2, explicitSort: false, ...(format === undefined ? {} : { format }) },
  };
}

const TOP_HITS_IGNORED = ['version', 'explain', 'stored_fields', 'docvalue_fields', 'highlight', 'track_scores', 'seq_no_primary_term', 'fields', 'script_fields'];

function topHits(name: string, body: Json): ParsedAgg {
  let from = 0;
  let size = 3;
  let sort: SortKey[] = [];
  let sourceValue: unknown;
  const ignored: Record<string, (v: unknown) => void> = {};
  for (const key of TOP_HITS_IGNORED) ignored[key] = () => undefined;
  eachOption('top_hits', body, {
    ...ignored,
    from: (v) => (from = intOf('top_hits', 'from', v)),
    size: (v) => (size = intOf('top_hits', 'size', v)),
    sort: (v) => (sort = parseSort(v)),
    _source: (v) => (sourceValue = v),
  });
  if (from < 0) throw new BadRequestError(`[from] parameter cannot be negative but was [${from}]`);
  if (size < 0) throw new BadRequestError(`[size] parameter cannot be negative but was [${size}]`);
  return {
    spec: { type: 'top_hits', name, from, size, sort },
    view: { keyed: false, zone: UTC, sigma: 2, explicitSort: sort.length > 0, source: parseSourceFilter(sourceValue) },
  };
}

function orderOf(v: unknown, field: string): 'asc' | 'desc' {
  if (v === undefined) return field === '_score' ? 'desc' : 'asc';
  if (v === 'asc' || v === 'desc') return v;
  throw new BadRequestError(`[sort] order must be [asc] or [desc], found [${String(v)}]`);
}

function parseSort(value: unknown): SortKey[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry): SortKey => {
    if (typeof entry === 'string') return { field: entry, order: orderOf(undefined, entry) };
    if (!isObject(entry) || Object.keys(entry).length !== 1) {
      throw new ParsingError('[sort] entries must be a field name or an object with one field', {}, 'x_content_parse_exception');
    }
    const [field, spec] = Object.entries(entry)[0]!;
    if (typeof spec === 'string') return { field, order: orderOf(spec, field) };
    if (!isObject(spec)) throw invalid('top_hits', 'sort', spec, 'a string or an object');
    const missing = spec.missing;
    if (missing !== undefined && missing !== '_first' && missing !== '_last') {
      throw new BadRequestError(`[sort] missing value [${String(missing)}] is not supported: use _first or _last`);
    }
    return { field, order: orderOf(spec.order, field), ...(missing === undefined ? {} : { missing }) };
  });
}
