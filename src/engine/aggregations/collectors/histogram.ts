/**
 * histogram and date_histogram: each value goes to the bucket its rounding gives, through a
 * (parent, key) table; hard_bounds drop buckets whose key falls outside them. Empty buckets
 * (min_doc_count 0, extended_bounds) are added only when the final result is built.
 */
import { BadRequestError } from '../../../common/errors.js';
import { BucketOrds } from '../bucket-ords.js';
import { BATCH, NO_BUCKET, type Collector, type SegmentContext } from '../collector.js';
import { fieldValues, numericMissing, unsupportedField } from '../field-values.js';
import { allocate, grow } from '../memory.js';
import type { BucketsPartial, ValueKind } from '../partial.js';
import { dateRounding, histogramRounding, type Rounding } from '../rounding.js';
import type { DateHistogramSpec, HistogramSpec } from '../spec.js';
import { TimeZone } from '../time-zone.js';
import { BucketsBuilder, emptyBuckets } from './buckets-builder.js';

export function roundingOf(spec: HistogramSpec | DateHistogramSpec): Rounding {
  if (spec.type === 'histogram') return histogramRounding(spec.interval, spec.offset);
  const zone = TimeZone.resolve(spec.timeZone);
  if (zone === undefined) throw new BadRequestError(`unknown time zone [${spec.timeZone}]`);
  return dateRounding(spec.interval, zone, spec.offset);
}

export class HistogramCollector implements Collector {
  private readonly subs: Collector[];
  private readonly values: Float64Array | null = null;
  private readonly missing: number | undefined;
  private readonly valueKind: ValueKind | null = null;
  private readonly rounding: Rounding;
  private readonly table: BucketOrds;
  private counts = new Float64Array(0);
  private groups: { order: Int32Array; start: Int32Array } | null = null;
  private readonly docScratch: Uint32Array;
  private readonly ordScratch: Int32Array;

  constructor(
    private readonly spec: HistogramSpec | DateHistogramSpec,
    private readonly ctx: SegmentContext,
  ) {
    const fv = fieldValues(ctx.segment, ctx.index, spec.field, ctx.limit, ctx.scope);
    if (fv.kind === 'ordinals') throw unsupportedField(spec.field, fv, spec.type);
    if (fv.kind === 'numeric') {
      this.values = fv.values;
      this.valueKind = fv.valueKind;
      this.missing = numericMissing(spec.missing, fv.valueKind, spec.field, ctx.nowMs);
    } else {
      this.missing = spec.missing;
    }
    this.rounding = roundingOf(spec);
    this.table = new BucketOrds(ctx.scope, spec.name);
    this.subs = spec.aggs.map((s) => ctx.create(s, false));
    const scratch = this.subs.length > 0 ? BATCH : 0;
    this.docScratch = allocate(Uint32Array, scratch, ctx.scope, spec.name);
    this.ordScratch = allocate(Int32Array, scratch, ctx.scope, spec.name);
  }

  collect(docs: Uint32Array, parents: Int32Array | null, n: number): void {
    const { values, missing, rounding, table, docScratch, ordScratch } = this;
    const withSubs = this.subs.length > 0;
    const hard = this.spec.hardBounds;
    const hardMin = hard?.min ?? -Infinity;
    const hardMax = hard?.max ?? Infinity;
    // the last bucket seen: values of logs mostly arrive in time order
    let lo = Infinity;
    let hi = -Infinity;
    let key = NaN;
    let lastParent = -1;
    let lastKey = NaN;
    let lastOwn = -1;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      let v = values === null ? NaN : values[doc]!;
      if (v !== v) {
        if (missing === undefined) continue;
        v = missing;
      }
      if (!(v >= lo && v < hi)) {
        key = rounding.round(v);
        lo = key;
        hi = rounding.next(key);
      }
      if (key < hardMin || key > hardMax) continue;
      const p = parents === null ? 0 : parents[i]!;
      let own: number;
      if (key === lastKey && p === lastParent) own = lastOwn;
      else {
        own = table.add(p, key);
        if (own >= this.counts.length) this.counts = grow(this.counts, own + 1, this.ctx.scope, this.spec.name);
        lastKey = key;
        lastParent = p;
        lastOwn = own;
      }
      this.counts[own]! += 1;
      if (withSubs) {
        docScratch[m] = doc;
        ordScratch[m++] = own;
      }
    }
    if (m > 0) for (const sub of this.subs) sub.collect(docScratch, ordScratch, m);
  }

  result(parent: number): BucketsPartial {
    if (parent === NO_BUCKET) return emptyBuckets(this.ctx, this.spec.name, false, this.valueKind);
    this.groups ??= this.table.groups();
    const { order, start } = this.groups;
    const from = parent + 1 < start.length ? start[parent]! : 0;
    const to = parent + 1 < start.length ? start[parent + 1]! : 0;
    const keys = this.table.keys;
    const builder = new BucketsBuilder(this.ctx, this.spec.name, to - from, false, this.spec.aggs);
    for (let g = from; g < to; g++) {
      const own = order[g]!;
      builder.push(keys[own]!, this.counts[own]!, own);
    }
    return builder.finish(this.subs, this.valueKind);
  }
}
