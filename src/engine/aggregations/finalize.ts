/**
 * The last step: the merged partial of every index becomes the final result. Terms are ordered
 * and cut to size (sum_other_doc_count, doc_count_error_upper_bound), histograms get their empty
 * buckets (min_doc_count 0, extended_bounds within hard_bounds), sketches give their estimates
 * and top_hits read their sources. Every bucket of the response counts against the bucket cap
 * before it is built.
 */
import { storedDocument } from '../search/index.js';
import { OBJECT_BYTES, type AggregationMemory } from './memory.js';
import { bucketComparator, compareDoubles, pathValue } from './order.js';
import type { BucketsPartial, Partial, TopHitsPartial } from './partial.js';
import type {
  AggResult,
  Bucket,
  FiltersResult,
  HistogramResult,
  RangeResult,
  StatsResult,
  TermsResult,
  TopHitsResult,
} from './result.js';
import { roundingOf } from './collectors/histogram.js';
import { sortedRanges } from './collectors/range.js';
import type { AggSpec, DateHistogramSpec, FiltersSpec, HistogramSpec, RangeSpec, TermsSpec, TopHitsSpec } from './spec.js';
import { selectTop } from './top-k.js';

export interface FinalContext {
  memory: AggregationMemory;
  /** indexes the search covered: with one, terms counts are exact */
  indexCount: number;
}

const BUCKET_BYTES = OBJECT_BYTES * 2;

export function finalize(spec: AggSpec, p: Partial | undefined, ctx: FinalContext): AggResult {
  switch (spec.type) {
    case 'avg':
    case 'sum':
    case 'min':
    case 'max':
    case 'stats':
    case 'extended_stats':
    case 'value_count': {
      const s = p?.kind === 'stats' ? p : undefined;
      const result: StatsResult = {
        kind: 'stats',
        type: spec.type,
        count: s?.count ?? 0,
        sum: s === undefined ? 0 : s.sum - s.comp,
        min: s?.min ?? Infinity,
        max: s?.max ?? -Infinity,
        sumOfSquares: s?.sumOfSquares ?? 0,
        valueKind: s?.valueKind ?? null,
      };
      return result;
    }
    case 'cardinality':
      return { kind: 'cardinality', value: p?.kind === 'cardinality' ? p.sketch.estimate() : 0 };
    case 'percentiles': {
      const sketch = p?.kind === 'percentiles' ? p.sketch : undefined;
      return {
        kind: 'percentiles',
        values: spec.percents.map((percent) => ({ percent, value: sketch === undefined ? null : sketch.quantile(percent / 100) })),
        valueKind: p?.kind === 'percentiles' ? p.valueKind : null,
      };
    }
    case 'top_hits':
      return topHits(spec, p?.kind === 'top_hits' ? p : undefined);
    case 'filter':
    case 'missing': {
      const s = p?.kind === 'single' ? p : undefined;
      return { kind: 'single', docCount: s?.count ?? 0, subs: spec.aggs.map((sub, j) => finalize(sub, s?.subs[j], ctx)) };
    }
    case 'terms':
      return terms(spec, p?.kind === 'buckets' ? p : undefined, ctx);
    case 'histogram':
    case 'date_histogram':
      return histogram(spec, p?.kind === 'buckets' ? p : undefined, ctx);
    case 'range':
      return range(spec, p?.kind === 'buckets' ? p : undefined, ctx);
    case 'filters':
      return filters(spec, p?.kind === 'buckets' ? p : undefined, ctx);
  }
}

function subResults(specs: readonly AggSpec[], p: BucketsPartial | undefined, i: number, ctx: FinalContext): AggResult[] {
  const row = i >= 0 ? p?.subs?.[i] : undefined;
  return specs.map((s, j) => finalize(s, row?.[j], ctx));
}

function topHits(spec: TopHitsSpec, p: TopHitsPartial | undefined): TopHitsResult {
  const page = (p?.hits ?? []).slice(spec.from, spec.from + spec.size);
  return {
    kind: 'top_hits',
    total: p?.total ?? 0,
    hits: page.map((c) => {
      const { id, source } = c.stored ?? storedDocument(c.segment!, c.doc);
      return { index: c.index, id, source, sortValues: c.values };
    }),
  };
}

function terms(spec: TermsSpec, p: BucketsPartial | undefined, ctx: FinalContext): TermsResult {
  if (p === undefined) return { kind: 'terms', valueKind: null, docCountErrorUpperBound: 0, sumOtherDocCount: 0, buckets: [] };
  const n = p.counts.length;
  const { top } = selectTop(n, (i) => p.counts[i]! >= spec.minDocCount, bucketComparator(spec.order, spec.aggs, p, ctx.memory), spec.size, ctx.memory, spec.name);
  ctx.memory.consumeBuckets(top.length);
  ctx.memory.charge(top.length * BUCKET_BYTES, spec.name);
  let other = p.otherDocCount;
  const kept = new Set(top);
  for (let i = 0; i < n; i++) if (!kept.has(i) && p.counts[i]! >= spec.minDocCount) other += p.counts[i]!;
  const single = ctx.indexCount <= 1;
  const buckets: Bucket[] = Array.from(top, (i) => {
    const b: Bucket = { key: p.keys[i]!, docCount: p.counts[i]!, subs: subResults(spec.aggs, p, i, ctx) };
    if (spec.showTermDocCountError) b.docCountError = single ? 0 : (p.bucketErrors?.[i] ?? 0);
    return b;
  });
  return {
    kind: 'terms',
    valueKind: p.valueKind,
    docCountErrorUpperBound: single ? 0 : p.errorBound,
    sumOtherDocCount: other,
    buckets,
  };
}

function histogram(spec: HistogramSpec | DateHistogramSpec, p: BucketsPartial | undefined, ctx: FinalContext): HistogramResult {
  const rounding = roundingOf(spec);
  const keys = (p?.keys ?? new Float64Array(0)) as Float64Array;
  const counts = p?.counts ?? new Float64Array(0);
  const n = keys.length;
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < n; i++) {
    if (counts[i]! < spec.minDocCount) continue;
    if (keys[i]! < first) first = keys[i]!;
    if (keys[i]! > last) last = keys[i]!;
  }
  let low = first;
  let high = last;
  if (spec.minDocCount === 0) {
    const ext = spec.extendedBounds;
    if (ext?.min !== undefined) low = Math.min(low, rounding.round(ext.min));
    if (ext?.max !== undefined) high = Math.max(high, rounding.round(ext.max));
    const hard = spec.hardBounds;
    if (hard?.min !== undefined && low < hard.min) {
      low = rounding.round(hard.min);
      if (low < hard.min) low = rounding.next(low);
    }
    if (hard?.max !== undefined && high > hard.max) high = rounding.round(hard.max);
  }
  // count before building anything: a wide extended_bounds must fail before it allocates
  let total = 0;
  if (spec.minDocCount > 0 || !(low <= high)) {
    for (let i = 0; i < n; i++) if (counts[i]! >= spec.minDocCount) total++;
  } else if (rounding.fixedWidth !== null) {
    total = Math.round((high - low) / rounding.fixedWidth) + 1;
  } else {
    const cap = ctx.memory.maxBuckets + 1;
    for (let k = low; k <= high && total < cap; k = rounding.next(k)) total++;
  }
  ctx.memory.consumeBuckets(total);
  ctx.memory.charge(total * BUCKET_BYTES, spec.name);

  const buckets: Bucket[] = [];
  const positions: number[] = [];
  if (spec.minDocCount > 0 || !(low <= high)) {
    for (let i = 0; i < n; i++) {
      if (counts[i]! < spec.minDocCount) continue;
      buckets.push({ key: keys[i]!, docCount: counts[i]!, subs: subResults(spec.aggs, p, i, ctx) });
      positions.push(i);
    }
  } else {
    let i = 0;
    for (let k = low; k <= high; ) {
      while (i < n && keys[i]! < k - 1e-9 * Math.abs(k)) i++;
      const hit = i < n && Math.abs(keys[i]! - k) <= 1e-9 * Math.max(1, Math.abs(k));
      if (hit) {
        buckets.push({ key: keys[i]!, docCount: counts[i]!, subs: subResults(spec.aggs, p, i, ctx) });
        positions.push(i);
        k = rounding.next(keys[i]!);
        i++;
      } else {
        buckets.push({ key: k, docCount: 0, subs: subResults(spec.aggs, undefined, -1, ctx) });
        positions.push(-1);
        k = rounding.next(k);
      }
    }
  }
  const order = spec.order;
  if (!(order.length === 1 && order[0]!.by === '_key' && !order[0]!.desc)) {
    const values = order.map((o) =>
      o.by === 'path' ? positions.map((i) => (i < 0 ? NaN : pathValue(spec.aggs, p!.subs?.[i] ?? [], o.path, o.metric))) : null,
    );
    const index = buckets.map((_, j) => j);
    index.sort((a, b) => {
      for (let c = 0; c < order.length; c++) {
        const o = order[c]!;
        let r: number;
        if (o.by === '_count') r = buckets[a]!.docCount - buckets[b]!.docCount;
        else if (o.by === '_key') r = (buckets[a]!.key as number) - (buckets[b]!.key as number);
        else r = compareDoubles(values[c]![a]!, values[c]![b]!);
        if (r !== 0) return o.desc ? -r : r;
      }
      return (buckets[a]!.key as number) - (buckets[b]!.key as number);
    });
    return { kind: 'histogram', valueKind: p?.valueKind ?? null, buckets: index.map((j) => buckets[j]!) };
  }
  return { kind: 'histogram', valueKind: p?.valueKind ?? null, buckets };
}

function range(spec: RangeSpec, p: BucketsPartial | undefined, ctx: FinalContext): RangeResult {
  const ranges = sortedRanges(spec);
  ctx.memory.consumeBuckets(ranges.length);
  ctx.memory.charge(ranges.length * BUCKET_BYTES, spec.name);
  return {
    kind: 'range',
    valueKind: p?.valueKind ?? null,
    buckets: ranges.map((r, i) => {
      const at = positionOf(p, i);
      return {
        ...(r.key === undefined ? {} : { key: r.key }),
        ...(r.from === -Infinity ? {} : { from: r.from }),
        ...(r.to === Infinity ? {} : { to: r.to }),
        docCount: at < 0 ? 0 : p!.counts[at]!,
        subs: subResults(spec.aggs, p, at, ctx),
      };
    }),
  };
}

function filters(spec: FiltersSpec, p: BucketsPartial | undefined, ctx: FinalContext): FiltersResult {
  const keys = spec.filters.map((f) => f.key);
  if (spec.otherBucketKey !== undefined) keys.push(spec.otherBucketKey);
  ctx.memory.consumeBuckets(keys.length);
  ctx.memory.charge(keys.length * BUCKET_BYTES, spec.name);
  return {
    kind: 'filters',
    buckets: keys.map((key, i) => {
      const at = positionOf(p, i);
      return { key, docCount: at < 0 ? 0 : p!.counts[at]!, subs: subResults(spec.aggs, p, at, ctx) };
    }),
  };
}

/** Where bucket number i (range or filter position) sits in the partial, -1 when absent. */
function positionOf(p: BucketsPartial | undefined, i: number): number {
  if (p === undefined) return -1;
  const keys = p.keys as Float64Array;
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! === i) return mid;
    if (keys[mid]! < i) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
