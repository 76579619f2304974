/**
 * Engine aggregation results → the `aggregations` object of an Elasticsearch 7.10 response:
 * value/value_as_string, buckets with key/key_as_string/doc_count, keyed buckets, typed_keys
 * names (`date_histogram#h`, `sterms#t`, `avg#a`, ...). Stored sources of top_hits are spliced
 * in as they are.
 */
import type { AggResult, Bucket, StatsResult, TermsResult, ValueKind } from '../../engine/aggregations/index.js';
import { filterSource } from '../search/source-filter.js';
import { dateFormatter } from './date-format.js';
import { decimalFormat, javaDouble } from './number-format.js';
import type { AggView } from './parse-aggs.js';

/** JSON text placed as it is. */
class Raw {
  constructor(readonly text: string) {}
}

type Value = Raw | string | number | boolean | null | Value[] | { [key: string]: Value };

function write(v: Value): string {
  if (v === null) return 'null';
  if (v instanceof Raw) return v.text;
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(write).join(',')}]`;
  const parts: string[] = [];
  for (const [k, x] of Object.entries(v)) parts.push(`${JSON.stringify(k)}:${write(x)}`);
  return `{${parts.join(',')}}`;
}

export function renderAggregations(views: readonly AggView[], results: readonly AggResult[], typedKeys: boolean): string {
  return write(aggsObject(views, results, typedKeys));
}

function aggsObject(views: readonly AggView[], results: readonly AggResult[], typedKeys: boolean): { [key: string]: Value } {
  const out: { [key: string]: Value } = {};
  views.forEach((view, i) => {
    const result = results[i]!;
    const name = typedKeys ? `${typedName(view, result)}#${view.name}` : view.name;
    const body = renderOne(view, result, typedKeys);
    out[name] = view.meta === undefined ? body : { meta: view.meta as Value, ...body };
  });
  return out;
}

function typedName(view: AggView, result: AggResult): string {
  if (view.type === 'percentiles') return 'tdigest_percentiles';
  if (result.kind === 'terms') return termsType(result.valueKind);
  return view.type;
}

function termsType(kind: ValueKind | null): string {
  if (kind === 'double') return 'dterms';
  if (kind === 'long' || kind === 'date' || kind === 'boolean') return 'lterms';
  return 'sterms';
}

/** How a value prints as a string, or undefined when Elasticsearch would not print one. */
function asString(view: AggView, kind: ValueKind | null, value: number): string | undefined {
  if (kind === 'date') return dateFormatter(view.format).format(value, view.zone);
  if (kind === 'boolean') return value === 0 ? 'false' : 'true';
  if (view.format !== undefined) return decimalFormat(view.format)?.format(value) ?? javaDouble(value);
  return undefined;
}

/** The key text of a histogram bucket (date_histogram: always; histogram: with a format). */
function histogramKeyText(view: AggView, valueKind: ValueKind | null, key: number): string | undefined {
  return view.type === 'date_histogram' ? dateFormatter(view.format).format(key, view.zone) : asString(view, valueKind === 'date' ? null : valueKind, key);
}

/**
 * The bucket list of a histogram without sub-aggregations, as text: the common shape (a
 * per-minute date_histogram over a day has 1,440 buckets), written without a value tree.
 */
function plainHistogramBuckets(view: AggView, r: Extract<AggResult, { kind: 'histogram' }>): string {
  const parts: string[] = new Array(r.buckets.length);
  for (let i = 0; i < r.buckets.length; i++) {
    const b = r.buckets[i]!;
    const key = b.key as number;
    const s = histogramKeyText(view, r.valueKind, key);
    const head = s === undefined ? '' : `"key_as_string":${JSON.stringify(s)},`;
    parts[i] = `{${head}"key":${write(key)},"doc_count":${b.docCount}}`;
  }
  return `[${parts.join(',')}]`;
}

function finite(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

function renderOne(view: AggView, r: AggResult, typedKeys: boolean): { [key: string]: Value } {
  switch (r.kind) {
    case 'stats':
      return stats(view, r);
    case 'cardinality':
      return { value: r.value };
    case 'percentiles': {
      if (view.keyed) {
        const values: { [key: string]: Value } = {};
        for (const { percent, value } of r.values) {
          const key = javaDouble(percent);
          values[key] = value;
          const s = value === null ? undefined : asString(view, r.valueKind, value);
          if (s !== undefined) values[`${key}_as_string`] = s;
        }
        return { values };
      }
      return {
        values: r.values.map(({ percent, value }) => {
          const s = value === null ? undefined : asString(view, r.valueKind, value);
          return { key: percent, value, ...(s === undefined ? {} : { value_as_string: s }) };
        }),
      };
    }
    case 'top_hits':
      return {
        hits: {
          total: { value: r.total, relation: 'eq' },
          max_score: null,
          hits: r.hits.map((h) => {
            const hit: { [key: string]: Value } = { _index: h.index, _type: '_doc', _id: h.id, _score: null };
            const source = view.source === undefined ? h.source : filterSource(view.source, h.source);
            if (source !== undefined) hit._source = new Raw(source);
            if (view.explicitSort) hit.sort = h.sortValues;
            return hit;
          }),
        },
      };
    case 'single':
      return { doc_count: r.docCount, ...aggsObject(view.subs, r.subs, typedKeys) };
    case 'terms':
      return terms(view, r, typedKeys);
    case 'histogram': {
      if (!view.keyed && view.subs.length === 0) return { buckets: new Raw(plainHistogramBuckets(view, r)) };
      const buckets = r.buckets.map((b) => {
        const key = b.key as number;
        const s = histogramKeyText(view, r.valueKind, key);
        const bucket: { [k: string]: Value } = s === undefined ? { key } : { key_as_string: s, key };
        return { keyText: s ?? javaDouble(key), body: { ...bucket, doc_count: b.docCount, ...aggsObject(view.subs, b.subs, typedKeys) } };
      });
      return { buckets: keyedOrList(view.keyed, buckets) };
    }
    case 'range': {
      const isDate = view.type === 'date_range';
      const text = (v: number): { s?: string; key: string } => {
        const s = isDate ? dateFormatter(view.format).format(v, view.zone) : view.format !== undefined ? asString(view, null, v) : undefined;
        return { ...(s === undefined ? {} : { s }), key: s ?? javaDouble(v) };
      };
      const buckets = r.buckets.map((b) => {
        const from = b.from === undefined ? undefined : text(b.from);
        const to = b.to === undefined ? undefined : text(b.to);
        const key = b.key ?? `${from?.key ?? '*'}-${to?.key ?? '*'}`;
        // keyed buckets carry their key as the property name only
        const body: { [k: string]: Value } = view.keyed ? {} : { key };
        if (b.from !== undefined) {
          body.from = b.from;
          if (from!.s !== undefined) body.from_as_string = from!.s;
        }
        if (b.to !== undefined) {
          body.to = b.to;
          if (to!.s !== undefined) body.to_as_string = to!.s;
        }
        body.doc_count = b.docCount;
        Object.assign(body, aggsObject(view.subs, b.subs, typedKeys));
        return { keyText: key, body };
      });
      return { buckets: keyedOrList(view.keyed, buckets) };
    }
    case 'filters': {
      const buckets = r.buckets.map((b) => ({ keyText: b.key, body: { doc_count: b.docCount, ...aggsObject(view.subs, b.subs, typedKeys) } }));
      return { buckets: keyedOrList(view.keyed, buckets) };
    }
  }
}

function keyedOrList(keyed: boolean, buckets: Array<{ keyText: string; body: { [k: string]: Value } }>): Value {
  if (!keyed) return buckets.map((b) => b.body);
  const out: { [key: string]: Value } = {};
  for (const b of buckets) out[b.keyText] = b.body;
  return out;
}

function terms(view: AggView, r: TermsResult, typedKeys: boolean): { [key: string]: Value } {
  return {
    doc_count_error_upper_bound: r.docCountErrorUpperBound,
    sum_other_doc_count: r.sumOtherDocCount,
    buckets: r.buckets.map((b: Bucket) => {
      const body: { [k: string]: Value } = { key: b.key };
      if (typeof b.key === 'number') {
        const s = asString(view, r.valueKind, b.key);
        if (s !== undefined) body.key_as_string = s;
      }
      body.doc_count = b.docCount;
      if (b.docCountError !== undefined) body.doc_count_error_upper_bound = b.docCountError;
      return { ...body, ...aggsObject(view.subs, b.subs, typedKeys) };
    }),
  };
}

function stats(view: AggView, r: StatsResult): { [key: string]: Value } {
  const n = r.count;
  const str = (v: number | null) => (v === null ? undefined : asString(view, r.valueKind, v));
  const single = (value: number | null): { [key: string]: Value } => {
    const s = str(value);
    return s === undefined ? { value } : { value, value_as_string: s };
  };
  const avg = n > 0 ? r.sum / n : null;
  switch (r.type) {
    case 'avg':
      return single(avg);
    case 'sum':
      return single(r.sum);
    case 'min':
      return single(finite(r.min));
    case 'max':
      return single(finite(r.max));
    case 'value_count':
      return { value: n };
    default:
      break;
  }
  const out: { [key: string]: Value } = { count: n, min: finite(r.min), max: finite(r.max), avg, sum: r.sum };
  if (n > 0) {
    for (const [k, v] of [['min', r.min], ['max', r.max], ['avg', avg], ['sum', r.sum]] as const) {
      const s = str(v);
      if (s !== undefined) out[`${k}_as_string`] = s;
    }
  }
  if (r.type !== 'extended_stats') return out;
  if (n === 0) {
    return {
      ...out,
      sum_of_squares: null,
      variance: null,
      variance_population: null,
      variance_sampling: null,
      std_deviation: null,
      std_deviation_population: null,
      std_deviation_sampling: null,
      std_deviation_bounds: { upper: null, lower: null, upper_population: null, lower_population: null, upper_sampling: null, lower_sampling: null },
    };
  }
  const spread = r.sumOfSquares - (r.sum * r.sum) / n;
  const variance = Math.max(0, spread / n);
  const varianceSampling = n > 1 ? Math.max(0, spread / (n - 1)) : NaN;
  const std = Math.sqrt(variance);
  const stdSampling = Math.sqrt(varianceSampling);
  const sigma = view.sigma;
  return {
    ...out,
    sum_of_squares: r.sumOfSquares,
    variance,
    variance_population: variance,
    variance_sampling: finite(varianceSampling),
    std_deviation: std,
    std_deviation_population: std,
    std_deviation_sampling: finite(stdSampling),
    std_deviation_bounds: {
      upper: avg! + sigma * std,
      lower: avg! - sigma * std,
      upper_population: avg! + sigma * std,
      lower_population: avg! - sigma * std,
      upper_sampling: finite(avg! + sigma * stdSampling),
      lower_sampling: finite(avg! - sigma * stdSampling),
    },
  };
}
