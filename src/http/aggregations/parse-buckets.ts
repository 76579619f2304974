/**
 * Bucket aggregations: terms, histogram, date_histogram, range, date_range, filter, filters,
 * missing. Dates (extended_bounds, hard_bounds, date_range bounds, missing) are resolved here
 * with the aggregation's format and time zone, so the engine sees epoch ms only.
 */
import { BadRequestError, ParsingError } from '../../common/index.js';
import { parseDateMath } from '../../common/date-math.js';
import {
  TimeZone,
  type AggSpec,
  type BucketOrder,
  type Bounds,
  type CalendarUnit,
  type DateInterval,
  type MissingValue,
  type TermFilter,
} from '../../engine/aggregations/index.js';
import { parseQueryDsl } from '../../query/index.js';
import type { ParseContext, ParsedAgg } from './parse-aggs.js';
import {
  boolOf,
  eachOption,
  intOf,
  invalid,
  isObject,
  missingOf,
  numberOf,
  objectOf,
  stringOf,
  timeValueMs,
  type Json,
} from './parse-common.js';

export const BUCKET_TYPES = new Set(['terms', 'histogram', 'date_histogram', 'range', 'date_range', 'filter', 'filters', 'missing']);

const UTC = TimeZone.UTC;

export function parseBucketAgg(type: string, name: string, raw: unknown, aggs: AggSpec[], ctx: ParseContext): ParsedAgg {
  switch (type) {
    case 'filter':
      if (!isObject(raw)) throw invalid('filter', name, raw, 'a query object');
      return { spec: { type: 'filter', name, query: parseQueryDsl(raw), aggs }, view: plainView() };
    case 'filters':
      return filters(name, objectOf('filters', name, raw), aggs);
    case 'missing':
      return missing(name, objectOf('missing', name, raw), aggs);
    case 'terms':
      return terms(name, objectOf('terms', name, raw), aggs);
    case 'histogram':
      return histogram(name, objectOf('histogram', name, raw), aggs);
    case 'date_histogram':
      return dateHistogram(name, objectOf('date_histogram', name, raw), aggs, ctx);
    default:
      return range(type as 'range' | 'date_range', name, objectOf(type, name, raw), aggs, ctx);
  }
}

function plainView(keyed = false) {
  return { keyed, zone: UTC, sigma: 2, explicitSort: false };
}

function requireField(type: string, name: string, field: string | undefined): string {
  if (field === undefined) {
    throw new BadRequestError(`Required one of fields [field, script], but none were specified. in [${name}] of type [${type}]`);
  }
  return field;
}

function missing(name: string, body: Json, aggs: AggSpec[]): ParsedAgg {
  let field: string | undefined;
  eachOption('missing', body, { field: (v) => (field = stringOf('missing', 'field', v)) });
  return { spec: { type: 'missing', name, field: requireField('missing', name, field), aggs }, view: plainView() };
}

function filters(name: string, body: Json, aggs: AggSpec[]): ParsedAgg {
  let list: Array<{ key: string; query: ReturnType<typeof parseQueryDsl> }> = [];
  let keyed = true;
  let otherBucket: boolean | undefined;
  let otherKey: string | undefined;
  eachOption('filters', body, {
    filters: (v) => {
      if (Array.isArray(v)) {
        keyed = false;
        list = v.map((q, i) => ({ key: String(i), query: parseQueryDsl(q) }));
      } else if (isObject(v)) {
        list = Object.entries(v).map(([key, q]) => ({ key, query: parseQueryDsl(q) }));
      } else {
        throw invalid('filters', 'filters', v, 'an object or an array of queries');
      }
    },
    other_bucket: (v) => (otherBucket = boolOf('filters', 'other_bucket', v)),
    other_bucket_key: (v) => (otherKey = stringOf('filters', 'other_bucket_key', v)),
  });
  // other_bucket_key alone asks for the bucket too, as in Elasticsearch
  const withOther = otherBucket ?? otherKey !== undefined;
  return {
    spec: { type: 'filters', name, filters: list, ...(withOther ? { otherBucketKey: otherKey ?? '_other_' } : {}), aggs },
    view: plainView(keyed),
  };
}

// ---- orders ----

function parsePath(text: string): { path: string[]; metric?: string } {
  const parts = text.split('>');
  const last = parts.pop()!;
  let name = last;
  let metric: string | undefined;
  const bracket = /^(.*)\[([^\]]*)\]$/.exec(last);
  if (bracket) {
    name = bracket[1]!;
    metric = bracket[2]!;
  } else {
    const dot = last.indexOf('.');
    if (dot > 0) {
      name = last.slice(0, dot);
      metric = last.slice(dot + 1);
    }
  }
  return { path: [...parts, name], ...(metric === undefined ? {} : { metric }) };
}

export function parseOrder(agg: string, value: unknown): BucketOrder[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry): BucketOrder => {
    if (!isObject(entry) || Object.keys(entry).length !== 1) throw invalid(agg, 'order', entry, 'an object with one key');
    const [key, dir] = Object.entries(entry)[0]!;
    const d = typeof dir === 'string' ? dir.toLowerCase() : dir;
    if (d !== 'asc' && d !== 'desc') throw new ParsingError(`Unknown order direction [${String(dir)}] in [${agg}]`);
    const desc = d === 'desc';
    if (key === '_count') return { by: '_count', desc };
    if (key === '_key' || key === '_term' || key === '_time') return { by: '_key', desc };
    return { by: 'path', ...parsePath(key), desc };
  });
}

// ---- terms ----

function termFilter(agg: string, key: string, v: unknown): TermFilter {
  if (typeof v === 'string') {
    try {
      return { kind: 'regex', regex: new RegExp(`^(?:${v})$`, 'u') };
    } catch {
      throw new BadRequestError(`[${key}] of [${agg}] is not a valid regular expression: [${v}]`);
    }
  }
  if (Array.isArray(v)) return { kind: 'values', values: new Set(v.map((x) => String(x))) };
  if (key === 'include' && isObject(v)) {
    const partition = intOf(agg, 'partition', v.partition);
    const numPartitions = intOf(agg, 'num_partitions', v.num_partitions);
    if (numPartitions < 1 || partition < 0 || partition >= numPartitions) {
      throw new BadRequestError(`[partition] must be in [0, num_partitions) and [num_partitions] at least 1 in [${agg}]`);
    }
    return { kind: 'partition', partition, numPartitions };
  }
  throw invalid(agg, key, v, 'a regular expression, an array of values or a partition');
}

function terms(name: string, body: Json, aggs: AggSpec[]): ParsedAgg {
  let field: string | undefined;
  let size = 10;
  let shardSize: number | undefined;
  let minDocCount = 1;
  let shardMinDocCount = 0;
  let order: BucketOrder[] = [{ by: '_count', desc: true }];
  let missing: MissingValue | undefined;
  let include: TermFilter | undefined;
  let exclude: TermFilter | undefined;
  let showError = false;
  let format: string | undefined;
  eachOption('terms', body, {
    field: (v) => (field = stringOf('terms', 'field', v)),
    size: (v) => (size = intOf('terms', 'size', v)),
    shard_size: (v) => (shardSize = intOf('terms', 'shard_size', v)),
    min_doc_count: (v) => (minDocCount = intOf('terms', 'min_doc_count', v)),
    shard_min_doc_count: (v) => (shardMinDocCount = intOf('terms', 'shard_min_doc_count', v)),
    order: (v) => (order = parseOrder('terms', v)),
    missing: (v) => (missing = missingOf('terms', v)),
    include: (v) => (include = termFilter(name, 'include', v)),
    exclude: (v) => (exclude = termFilter(name, 'exclude', v)),
    show_term_doc_count_error: (v) => (showError = boolOf('terms', 'show_term_doc_count_error', v)),
    format: (v) => (format = stringOf('terms', 'format', v)),
  });
  if (size <= 0) throw new BadRequestError(`[size] must be greater than 0. Found [${size}] in [${name}]`);
  if (shardSize !== undefined && shardSize <= 0) throw new BadRequestError(`[shardSize] must be greater than 0. Found [${shardSize}] in [${name}]`);
  if (minDocCount < 0) throw new BadRequestError(`[minDocCount] must be greater than or equal to 0. Found [${minDocCount}] in [${name}]`);
  if (exclude?.kind === 'partition') throw new BadRequestError(`[exclude] cannot be a partition in [${name}]`);
  return {
    spec: {
      type: 'terms',
      name,
      field: requireField('terms', name, field),
      size,
      ...(shardSize === undefined ? {} : { shardSize }),
      minDocCount,
      shardMinDocCount,
      order,
      ...(missing === undefined ? {} : { missing }),
      ...(include === undefined ? {} : { include }),
      ...(exclude === undefined ? {} : { exclude }),
      showTermDocCountError: showError,
      aggs,
    },
    view: { ...plainView(), ...(format === undefined ? {} : { format }) },
  };
}

// ---- histograms ----

function bounds(agg: string, key: string, v: unknown, read: (x: unknown, what: string) => number): Bounds {
  const o = objectOf(agg, key, v);
  const out: Bounds = {};
  for (const [k, x] of Object.entries(o)) {
    if (k !== 'min' && k !== 'max') throw new ParsingError(`[${key}] unknown field [${k}]`, {}, 'x_content_parse_exception');
    if (x === null || x === undefined || x === '') continue;
    out[k] = read(x, `${key}.${k}`);
  }
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) {
    throw new BadRequestError(`[${key}.min][${out.min}] cannot be greater than [${key}.max][${out.max}] for histogram aggregation [${agg}]`);
  }
  return out;
}

function histogram(name: string, body: Json, aggs: AggSpec[]): ParsedAgg {
  let field: string | undefined;
  let interval: number | undefined;
  let offset = 0;
  let minDocCount = 0;
  let extendedBounds: Bounds | undefined;
  let hardBounds: Bounds | undefined;
  let order: BucketOrder[] = [{ by: '_key', desc: false }];
  let keyed = false;
  let missing: number | undefined;
  let format: string | undefined;
  const num = (x: unknown, what: string) => numberOf('histogram', what, x);
  eachOption('histogram', body, {
    field: (v) => (field = stringOf('histogram', 'field', v)),
    interval: (v) => (interval = numberOf('histogram', 'interval', v)),
    offset: (v) => (offset = numberOf('histogram', 'offset', v)),
    min_doc_count: (v) => (minDocCount = intOf('histogram', 'min_doc_count', v)),
    extended_bounds: (v) => (extendedBounds = bounds(name, 'extended_bounds', v, num)),
    hard_bounds: (v) => (hardBounds = bounds(name, 'hard_bounds', v, num)),
    order: (v) => (order = parseOrder('histogram', v)),
    keyed: (v) => (keyed = boolOf('histogram', 'keyed', v)),
    missing: (v) => (missing = numberOf('histogram', 'missing', v)),
    format: (v) => (format = stringOf('histogram', 'format', v)),
  });
  if (interval === undefined || !(interval > 0)) throw new BadRequestError(`[interval] must be >0 for histogram aggregation [${name}]`);
  if (minDocCount < 0) throw new BadRequestError(`[minDocCount] must be greater than or equal to 0. Found [${minDocCount}] in [${name}]`);
  return {
    spec: {
      type: 'histogram',
      name,
      field: requireField('histogram', name, field),
      interval,
      offset,
      minDocCount,
      ...(extendedBounds === undefined ? {} : { extendedBounds }),
      ...(hardBounds === undefined ? {} : { hardBounds }),
      order,
      ...(missing === undefined ? {} : { missing }),
      aggs,
    },
    view: { ...plainView(keyed), ...(format === undefined ? {} : { format }) },
  };
}

const CALENDAR_UNITS: Record<string, CalendarUnit | 'second'> = {
  year: 'year', '1y': 'year',
  quarter: 'quarter', '1q': 'quarter',
  month: 'month', '1M': 'month',
  week: 'week', '1w': 'week',
  day: 'day', '1d': 'day',
  hour: 'hour', '1h': 'hour',
  minute: 'minute', '1m': 'minute',
  second: 'second', '1s': 'second',
};

function calendarInterval(text: string): DateInterval | undefined {
  const unit = CALENDAR_UNITS[text.trim()];
  if (unit === undefined) return undefined;
  return unit === 'second' ? { kind: 'fixed', ms: 1000 } : { kind: 'calendar', unit };
}

function fixedInterval(text: string): DateInterval {
  const ms = timeValueMs(text);
  if (ms === undefined || !(ms > 0) || /^[+-]/.test(text.trim())) {
    throw new BadRequestError(
      `failed to parse setting [date_histogram.fixedInterval] with value [${text}] as a time value: unit is missing or unrecognized`,
      'illegal_argument_exception',
    );
  }
  return { kind: 'fixed', ms };
}

function dateHistogram(name: string, body: Json, aggs: AggSpec[], ctx: ParseContext): ParsedAgg {
  let field: string | undefined;
  let calendar: string | undefined;
  let fixed: string | undefined;
  let legacy: string | undefined;
  let offsetText: unknown = 0;
  let timeZone = 'UTC';
  let minDocCount = 0;
  let extendedRaw: unknown;
  let hardRaw: unknown;
  let order: BucketOrder[] = [{ by: '_key', desc: false }];
  let keyed = false;
  let missingRaw: unknown;
  let format: string | undefined;
  const what = 'date_histogram';
  eachOption(what, body, {
    field: (v) => (field = stringOf(what, 'field', v)),
    calendar_interval: (v) => (calendar = stringOf(what, 'calendar_interval', v)),
    fixed_interval: (v) => (fixed = stringOf(what, 'fixed_interval', v)),
    interval: (v) => (legacy = typeof v === 'number' ? `${v}ms` : stringOf(what, 'interval', v)),
    offset: (v) => (offsetText = v),
    time_zone: (v) => (timeZone = stringOf(what, 'time_zone', v)),
    min_doc_count: (v) => (minDocCount = intOf(what, 'min_doc_count', v)),
    extended_bounds: (v) => (extendedRaw = v),
    hard_bounds: (v) => (hardRaw = v),
    order: (v) => (order = parseOrder(what, v)),
    keyed: (v) => (keyed = boolOf(what, 'keyed', v)),
    missing: (v) => (missingRaw = v),
    format: (v) => (format = stringOf(what, 'format', v)),
  });
  if (calendar !== undefined && fixed !== undefined) throw new BadRequestError('Cannot use [fixed_interval] with [calendar_interval] configuration option.');
  if (legacy !== undefined && (calendar !== undefined || fixed !== undefined)) {
    throw new BadRequestError(`Cannot use [interval] with [${calendar !== undefined ? 'calendar_interval' : 'fixed_interval'}] configuration options.`);
  }
  let interval: DateInterval;
  if (calendar !== undefined) {
    const c = calendarInterval(calendar);
    if (c === undefined) throw new BadRequestError(`The supplied interval [${calendar}] could not be parsed as a calendar interval.`);
    interval = c;
  } else if (fixed !== undefined) {
    interval = fixedInterval(fixed);
  } else if (legacy !== undefined) {
    // the 7.x `interval`: a calendar unit when it names one, else a fixed time value
    interval = calendarInterval(legacy) ?? fixedInterval(legacy);
  } else {
    throw new BadRequestError('Invalid interval specified, must be non-null and non-empty');
  }
  const zone = TimeZone.resolve(timeZone);
  if (zone === undefined) throw new BadRequestError(`unknown time zone [${timeZone}]`);
  let offset: number;
  if (typeof offsetText === 'number') offset = offsetText;
  else {
    const ms = timeValueMs(String(offsetText));
    if (ms === undefined) throw new BadRequestError(`failed to parse setting [date_histogram.offset] with value [${String(offsetText)}] as a time value`);
    offset = ms;
  }
  if (minDocCount < 0) throw new BadRequestError(`[minDocCount] must be greater than or equal to 0. Found [${minDocCount}] in [${name}]`);
  const date = (x: unknown) => dateValue(x, ctx, timeZone, format);
  const extendedBounds = extendedRaw === undefined ? undefined : bounds(name, 'extended_bounds', extendedRaw, date);
  const hardBounds = hardRaw === undefined ? undefined : bounds(name, 'hard_bounds', hardRaw, date);
  return {
    spec: {
      type: 'date_histogram',
      name,
      field: requireField(what, name, field),
      interval,
      offset,
      timeZone,
      minDocCount,
      ...(extendedBounds === undefined ? {} : { extendedBounds }),
      ...(hardBounds === undefined ? {} : { hardBounds }),
      order,
      ...(missingRaw === undefined ? {} : { missing: date(missingRaw) }),
      aggs,
    },
    view: { keyed, zone, sigma: 2, explicitSort: false, ...(format === undefined ? {} : { format }) },
  };
}

function dateValue(x: unknown, ctx: ParseContext, timeZone: string | undefined, format: string | undefined): number {
  if (typeof x !== 'number' && typeof x !== 'string') throw new BadRequestError(`failed to parse date value [${JSON.stringify(x)}]`, 'parse_exception');
  return parseDateMath(x, { nowMs: ctx.nowMs, roundUp: false, ...(timeZone === undefined ? {} : { timeZone }), ...(format === undefined ? {} : { format }) });
}

// ---- ranges ----

function range(type: 'range' | 'date_range', name: string, body: Json, aggs: AggSpec[], ctx: ParseContext): ParsedAgg {
  let field: string | undefined;
  let rawRanges: unknown[] = [];
  let keyed = false;
  let missingRaw: unknown;
  let format: string | undefined;
  let timeZone: string | undefined;
  eachOption(type, body, {
    field: (v) => (field = stringOf(type, 'field', v)),
    ranges: (v) => {
      if (!Array.isArray(v)) throw invalid(type, 'ranges', v, 'an array');
      rawRanges = v;
    },
    keyed: (v) => (keyed = boolOf(type, 'keyed', v)),
    missing: (v) => (missingRaw = v),
    format: (v) => (format = stringOf(type, 'format', v)),
    ...(type === 'date_range' ? { time_zone: (v: unknown) => (timeZone = stringOf(type, 'time_zone', v)) } : {}),
  });
  if (rawRanges.length === 0) throw new BadRequestError(`No [ranges] specified for the [${name}] aggregation`);
  let zone = UTC;
  if (timeZone !== undefined) {
    const z = TimeZone.resolve(timeZone);
    if (z === undefined) throw new BadRequestError(`unknown time zone [${timeZone}]`);
    zone = z;
  }
  const value = (x: unknown, what: string): number =>
    type === 'date_range' ? dateValue(x, ctx, timeZone, format) : numberOf(type, what, x);
  const ranges = rawRanges.map((r) => {
    const o = objectOf(type, 'ranges', r);
    const out: { key?: string; from?: number; to?: number } = {};
    for (const [k, x] of Object.entries(o)) {
      if (k === 'key') out.key = stringOf(type, 'key', x);
      else if (k === 'from' || k === 'to') {
        if (x !== null && x !== undefined) out[k] = value(x, k);
      } else throw new ParsingError(`[ranges] unknown field [${k}]`, {}, 'x_content_parse_exception');
    }
    return out;
  });
  let missing: number | undefined;
  if (missingRaw !== undefined) missing = type === 'date_range' ? dateValue(missingRaw, ctx, timeZone, format) : numberOf(type, 'missing', missingRaw);
  return {
    spec: { type: 'range', name, field: requireField(type, name, field), ranges, ...(missing === undefined ? {} : { missing }), aggs },
    view: { keyed, zone, sigma: 2, explicitSort: false, ...(format === undefined ? {} : { format }) },
  };
}
