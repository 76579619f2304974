/**
 * range and date_range: buckets [from, to) in the order of Elasticsearch (by from, then to);
 * ranges may overlap, so a doc can fall into several. Bucket ordinal = parent * ranges + range.
 */
import { BATCH, NO_BUCKET, maxParent, type Collector, type SegmentContext } from '../collector.js';
import { fieldValues, numericMissing, unsupportedField } from '../field-values.js';
import { allocate, grow } from '../memory.js';
import type { BucketsPartial, ValueKind } from '../partial.js';
import type { RangeSpec } from '../spec.js';
import { BucketsBuilder } from './buckets-builder.js';

export interface SortedRange {
  key?: string;
  from: number;
  to: number;
}

export function sortedRanges(spec: RangeSpec): SortedRange[] {
  return spec.ranges
    .map((r) => ({ ...(r.key === undefined ? {} : { key: r.key }), from: r.from ?? -Infinity, to: r.to ?? Infinity }))
    .sort((a, b) => a.from - b.from || a.to - b.to);
}

export class RangeCollector implements Collector {
  private readonly ranges: SortedRange[];
  private readonly subs: Collector[];
  private readonly values: Float64Array | null = null;
  private readonly missing: number | undefined;
  private readonly valueKind: ValueKind | null = null;
  private counts = new Float64Array(0);
  private readonly docScratch: Uint32Array;
  private readonly ordScratch: Int32Array;

  constructor(
    private readonly spec: RangeSpec,
    private readonly ctx: SegmentContext,
  ) {
    this.ranges = sortedRanges(spec);
    const fv = fieldValues(ctx.segment, ctx.index, spec.field, ctx.limit, ctx.scope);
    if (fv.kind === 'ordinals') throw unsupportedField(spec.field, fv, 'range');
    if (fv.kind === 'numeric') {
      this.values = fv.values;
      this.valueKind = fv.valueKind;
      this.missing = numericMissing(spec.missing, fv.valueKind, spec.field, ctx.nowMs);
    } else {
      this.missing = spec.missing;
    }
    this.subs = spec.aggs.map((s) => ctx.create(s, false));
    const scratch = this.subs.length > 0 ? BATCH : 0;
    this.docScratch = allocate(Uint32Array, scratch, ctx.scope, spec.name);
    this.ordScratch = allocate(Int32Array, scratch, ctx.scope, spec.name);
  }

  collect(docs: Uint32Array, parents: Int32Array | null, n: number): void {
    const R = this.ranges.length;
    if (R === 0 || n === 0) return;
    this.counts = grow(this.counts, (maxParent(parents, n) + 1) * R, this.ctx.scope, this.spec.name);
    const { values, missing, counts, docScratch, ordScratch } = this;
    const withSubs = this.subs.length > 0;
    for (let r = 0; r < R; r++) {
      const { from, to } = this.ranges[r]!;
      let m = 0;
      for (let i = 0; i < n; i++) {
        const doc = docs[i]!;
        let v = values === null ? NaN : values[doc]!;
        if (v !== v) {
          if (missing === undefined) continue;
          v = missing;
        }
        if (v < from || v >= to) continue;
        const own = (parents === null ? 0 : parents[i]!) * R + r;
        counts[own]! += 1;
        if (withSubs) {
          docScratch[m] = doc;
          ordScratch[m++] = own;
        }
      }
      if (m > 0) for (const sub of this.subs) sub.collect(docScratch, ordScratch, m);
    }
  }

  result(parent: number): BucketsPartial {
    const R = this.ranges.length;
    const builder = new BucketsBuilder(this.ctx, this.spec.name, R, false, this.spec.aggs);
    for (let r = 0; r < R; r++) {
      const own = parent === NO_BUCKET ? -1 : parent * R + r;
      const count = own >= 0 && own < this.counts.length ? this.counts[own]! : 0;
      builder.push(r, count, count > 0 ? own : NO_BUCKET);
    }
    return builder.finish(this.subs, this.valueKind);
  }
}
