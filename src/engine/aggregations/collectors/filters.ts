/**
 * filter, filters and missing: membership of each doc in a doc set of the segment (a query's
 * matches, or the docs without a field), tested through a bitset. filter and missing are single
 * buckets and keep their parent's ordinals; filters numbers its buckets parent * buckets + i,
 * the `other` bucket last.
 */
import { BATCH, NO_BUCKET, maxParent, type Collector, type SegmentContext } from '../collector.js';
import { resolveField } from '../field-values.js';
import { OBJECT_BYTES, allocate, grow } from '../memory.js';
import type { BucketsPartial, SingleBucketPartial } from '../partial.js';
import type { FilterSpec, FiltersSpec, MissingSpec } from '../spec.js';
import { BucketsBuilder } from './buckets-builder.js';

function bitsetOf(docs: Uint32Array, ctx: SegmentContext, label: string, invert: boolean): Uint32Array {
  const words = allocate(Uint32Array, (ctx.limit + 31) >>> 5, ctx.scope, label);
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    if (d < ctx.limit) words[d >>> 5]! |= 1 << (d & 31);
  }
  if (invert) for (let w = 0; w < words.length; w++) words[w] = ~words[w]!;
  return words;
}

function has(bits: Uint32Array, doc: number): boolean {
  return (bits[doc >>> 5]! & (1 << (doc & 31))) !== 0;
}

/** Docs without a value in the field; the built-in fields always have one. */
function missingDocs(spec: MissingSpec, ctx: SegmentContext): Uint32Array | null {
  if (spec.field === '_ts' || spec.field === '_lid' || spec.field === '_index' || spec.field === '_id') return null;
  const field = resolveField(ctx.segment, spec.field);
  return ctx.segment.exists(field);
}

export class SingleBucketCollector implements Collector {
  private readonly bits: Uint32Array | null;
  private readonly subs: Collector[];
  private counts = new Float64Array(0);
  private readonly docScratch: Uint32Array;
  private readonly ordScratch: Int32Array;

  constructor(
    private readonly spec: FilterSpec | MissingSpec,
    private readonly ctx: SegmentContext,
    singleParent: boolean,
  ) {
    if (spec.type === 'filter') {
      this.bits = bitsetOf(ctx.match(spec.query), ctx, spec.name, false);
    } else {
      const present = missingDocs(spec, ctx);
      this.bits = present === null ? null : bitsetOf(present, ctx, spec.name, true);
    }
    this.subs = spec.aggs.map((s) => ctx.create(s, singleParent));
    const scratch = this.subs.length > 0 ? BATCH : 0;
    this.docScratch = allocate(Uint32Array, scratch, ctx.scope, spec.name);
    this.ordScratch = allocate(Int32Array, scratch, ctx.scope, spec.name);
  }

  collect(docs: Uint32Array, parents: Int32Array | null, n: number): void {
    const bits = this.bits;
    if (bits === null || n === 0) return;
    this.counts = grow(this.counts, maxParent(parents, n) + 1, this.ctx.scope, this.spec.name);
    const { counts, docScratch, ordScratch } = this;
    const withSubs = this.subs.length > 0;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      if (!has(bits, doc)) continue;
      const p = parents === null ? 0 : parents[i]!;
      counts[p]! += 1;
      if (withSubs) {
        docScratch[m] = doc;
        ordScratch[m++] = p;
      }
    }
    if (m > 0) for (const sub of this.subs) sub.collect(docScratch, parents === null ? null : ordScratch, m);
  }

  result(parent: number): SingleBucketPartial {
    const count = parent !== NO_BUCKET && parent < this.counts.length ? this.counts[parent]! : 0;
    const subs = this.subs.map((s) => s.result(count > 0 ? parent : NO_BUCKET));
    const ownBytes = OBJECT_BYTES + subs.length * 8;
    this.ctx.memory.charge(ownBytes, this.spec.name);
    return { kind: 'single', count, subs, ownBytes };
  }
}

export class FiltersCollector implements Collector {
  private readonly bits: Uint32Array[];
  private readonly width: number;
  private readonly other: boolean;
  private readonly subs: Collector[];
  private counts = new Float64Array(0);
  private readonly docScratch: Uint32Array;
  private readonly ordScratch: Int32Array;

  constructor(
    private readonly spec: FiltersSpec,
    private readonly ctx: SegmentContext,
  ) {
    this.bits = spec.filters.map((f) => bitsetOf(ctx.match(f.query), ctx, spec.name, false));
    this.other = spec.otherBucketKey !== undefined;
    this.width = spec.filters.length + (this.other ? 1 : 0);
    this.subs = spec.aggs.map((s) => ctx.create(s, false));
    const scratch = this.subs.length > 0 ? BATCH : 0;
    this.docScratch = allocate(Uint32Array, scratch, ctx.scope, spec.name);
    this.ordScratch = allocate(Int32Array, scratch, ctx.scope, spec.name);
  }

  collect(docs: Uint32Array, parents: Int32Array | null, n: number): void {
    const W = this.width;
    if (W === 0 || n === 0) return;
    this.counts = grow(this.counts, (maxParent(parents, n) + 1) * W, this.ctx.scope, this.spec.name);
    const { counts, docScratch, ordScratch, bits } = this;
    const K = bits.length;
    const withSubs = this.subs.length > 0;
    for (let k = 0; k < W; k++) {
      let m = 0;
      for (let i = 0; i < n; i++) {
        const doc = docs[i]!;
        if (k < K) {
          if (!has(bits[k]!, doc)) continue;
        } else {
          let any = false;
          for (let j = 0; j < K && !any; j++) any = has(bits[j]!, doc);
          if (any) continue;
        }
        const own = (parents === null ? 0 : parents[i]!) * W + k;
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
    const W = this.width;
    const builder = new BucketsBuilder(this.ctx, this.spec.name, W, false, this.spec.aggs);
    for (let k = 0; k < W; k++) {
      const own = parent === NO_BUCKET ? -1 : parent * W + k;
      const count = own >= 0 && own < this.counts.length ? this.counts[own]! : 0;
      builder.push(k, count, count > 0 ? own : NO_BUCKET);
    }
    return builder.finish(this.subs, null);
  }
}
