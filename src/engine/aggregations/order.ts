/**
 * Bucket orders: by count, by key, or by the value of a sub-aggregation reached through a path
 * of single-bucket aggregations (`filterAgg>stats.max`, `avg_price`, `pct.95`). Values compare as
 * Java's Double.compare does (NaN above everything), ties go to the key ascending.
 */
import { BadRequestError } from '../../common/errors.js';
import { allocate, type Account } from './memory.js';
import type { BucketsPartial, Partial } from './partial.js';
import { isBucketSpec, type AggSpec, type BucketOrder } from './spec.js';

function orderError(reason: string): BadRequestError {
  return new BadRequestError(reason, 'aggregation_execution_exception');
}

const STATS_METRICS = new Set(['count', 'min', 'max', 'avg', 'sum']);
const EXTENDED_METRICS = new Set([
  ...STATS_METRICS,
  'sum_of_squares',
  'variance',
  'variance_population',
  'variance_sampling',
  'std_deviation',
  'std_deviation_population',
  'std_deviation_sampling',
]);

/** Throws a 400 unless every path order of `spec` names a value its sub-aggregations have. */
export function validateOrders(order: readonly BucketOrder[], subs: readonly AggSpec[], owner: string): void {
  for (const o of order) {
    if (o.by !== 'path') continue;
    const text = o.path.join('>') + (o.metric === undefined ? '' : `.${o.metric}`);
    let specs = subs;
    for (let k = 0; k < o.path.length; k++) {
      const name = o.path[k]!;
      const spec = specs.find((s) => s.name === name);
      if (spec === undefined) throw orderError(`Invalid aggregator order path [${text}]. Unknown aggregation [${name}] under [${owner}]`);
      const last = k === o.path.length - 1;
      if (isBucketSpec(spec)) {
        if (spec.type !== 'filter' && spec.type !== 'missing') {
          throw orderError(
            `Invalid aggregation order path [${text}]. Buckets can only be sorted on a sub-aggregator path that is built out of ` +
              'zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end.',
          );
        }
        if (last && o.metric !== undefined && o.metric !== '_count' && o.metric !== 'doc_count') {
          throw orderError(`Invalid aggregation order path [${text}]. Single-bucket aggregation [${name}] has no value [${o.metric}]`);
        }
        specs = spec.aggs;
        continue;
      }
      if (!last) throw orderError(`Invalid aggregation order path [${text}]. Metrics aggregation [${name}] must be at the end of the path`);
      checkMetric(spec, o.metric, text);
    }
  }
}

function checkMetric(spec: AggSpec, metric: string | undefined, text: string): void {
  switch (spec.type) {
    case 'stats':
    case 'extended_stats': {
      const allowed = spec.type === 'stats' ? STATS_METRICS : EXTENDED_METRICS;
      if (metric === undefined || !allowed.has(metric)) {
        throw orderError(`Invalid aggregation order path [${text}]. When ordering on a multi-value metrics aggregation a metric name must be specified`);
      }
      return;
    }
    case 'percentiles':
      if (metric === undefined || !Number.isFinite(Number(metric))) {
        throw orderError(`Invalid aggregation order path [${text}]. When ordering on a multi-value metrics aggregation a metric name must be specified`);
      }
      return;
    case 'top_hits':
      throw orderError(`Invalid aggregation order path [${text}]. Buckets cannot be sorted on [top_hits] aggregations`);
    default:
      if (metric !== undefined && metric !== 'value') {
        throw orderError(`Invalid aggregation order path [${text}]. Unknown value key [${metric}] of single-value metric aggregation [${spec.name}]`);
      }
  }
}

/** The value a path order names, from one bucket's sub-partials. */
export function pathValue(specs: readonly AggSpec[], subs: readonly Partial[], path: readonly string[], metric: string | undefined): number {
  let s = specs;
  let p = subs;
  for (let k = 0; k < path.length; k++) {
    const j = s.findIndex((x) => x.name === path[k]);
    const spec = s[j]!;
    const partial = p[j]!;
    if (partial.kind === 'single') {
      if (k === path.length - 1) return partial.count;
      s = isBucketSpec(spec) ? spec.aggs : [];
      p = partial.subs;
      continue;
    }
    return metricValue(spec, partial, metric);
  }
  return NaN;
}

function metricValue(spec: AggSpec, partial: Partial, metric: string | undefined): number {
  if (partial.kind === 'cardinality') return partial.sketch.estimate();
  if (partial.kind === 'percentiles') return partial.sketch.quantile(Number(metric) / 100) ?? NaN;
  if (partial.kind !== 'stats') return NaN;
  const sum = partial.sum - partial.comp;
  const name = metric ?? spec.type;
  const n = partial.count;
  const variance = n === 0 ? NaN : Math.max(0, partial.sumOfSquares / n - (sum / n) ** 2);
  switch (name) {
    case 'avg':
      return sum / n;
    case 'sum':
      return sum;
    case 'min':
      return partial.min;
    case 'max':
      return partial.max;
    case 'count':
    case 'value_count':
      return n;
    case 'sum_of_squares':
      return partial.sumOfSquares;
    case 'variance':
    case 'variance_population':
      return variance;
    case 'variance_sampling':
      return n < 2 ? NaN : (variance * n) / (n - 1);
    case 'std_deviation':
    case 'std_deviation_population':
      return Math.sqrt(variance);
    case 'std_deviation_sampling':
      return n < 2 ? NaN : Math.sqrt((variance * n) / (n - 1));
    default:
      return NaN;
  }
}

/** Java's Double.compare for ordering: NaN above everything. */
export function compareDoubles(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  const aNaN = a !== a;
  const bNaN = b !== b;
  if (aNaN === bNaN) return 0;
  return aNaN ? 1 : -1;
}

function compareKeys(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A comparator of bucket positions in `partial` for the given order (key ascending breaks ties). */
export function bucketComparator(
  order: readonly BucketOrder[],
  specs: readonly AggSpec[],
  partial: BucketsPartial,
  account: Account,
): (i: number, j: number) => number {
  const { keys, counts } = partial;
  const criteria = order.map((o) => {
    if (o.by !== 'path') {
      if (o.by === '_count') return (i: number, j: number) => (o.desc ? -1 : 1) * (counts[i]! - counts[j]!);
      return (i: number, j: number) => (o.desc ? -1 : 1) * compareKeys(keys[i]!, keys[j]!);
    }
    const values = allocate(Float64Array, counts.length, account, 'order');
    for (let i = 0; i < values.length; i++) values[i] = pathValue(specs, partial.subs?.[i] ?? [], o.path, o.metric);
    return (i: number, j: number) => (o.desc ? -1 : 1) * compareDoubles(values[i]!, values[j]!);
  });
  return (i, j) => {
    for (const c of criteria) {
      const r = c(i, j);
      if (r !== 0) return r;
    }
    return compareKeys(keys[i]!, keys[j]!);
  };
}

export function isCountDesc(order: readonly BucketOrder[]): boolean {
  return order.length > 0 && order[0]!.by === '_count' && order[0]!.desc;
}

export function isKeyOrder(order: readonly BucketOrder[]): boolean {
  return order.length > 0 && order[0]!.by === '_key';
}
