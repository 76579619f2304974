/**
 * terms: buckets by value. Keyword fields count by ordinal (dense counts when every doc belongs
 * to one parent bucket, a (parent, ordinal) table otherwise); numeric, date and boolean fields
 * count by value in a (parent, value) table. The partial of a segment holds every term with its
 * count; the index-level cut to shard_size happens after all segments of the index are merged.
 */
import { BadRequestError } from '../../../common/errors.js';
import { BucketOrds } from '../bucket-ords.js';
import { BATCH, NO_BUCKET, type Collector, type SegmentContext } from '../collector.js';
import { fieldValues, numericMissing, resolveField } from '../field-values.js';
import { multiValues, type MultiValues } from '../keyword-values.js';
import { allocate, grow } from '../memory.js';
import type { BucketsPartial, ValueKind } from '../partial.js';
import { hashNumber, hashString } from '../sketches/hash.js';
import type { TermFilter, TermsSpec } from '../spec.js';
import { BucketsBuilder, emptyBuckets } from './buckets-builder.js';

function accepts(filter: TermFilter, term: string | number): boolean {
  switch (filter.kind) {
    case 'regex':
      return filter.regex.test(String(term));
    case 'values':
      return filter.values.has(String(term));
    case 'partition': {
      const h = typeof term === 'string' ? hashString(term) : hashNumber(term);
      return h % filter.numPartitions === filter.partition;
    }
  }
}

function filterOf(spec: TermsSpec): ((term: string | number) => boolean) | null {
  const { include, exclude } = spec;
  if (include === undefined && exclude === undefined) return null;
  return (term) => (include === undefined || accepts(include, term)) && (exclude === undefined || !accepts(exclude, term));
}

export class TermsCollector implements Collector {
  private readonly subs: Collector[];
  private readonly dense: boolean;
  private readonly valueKind: ValueKind | null;
  // keyword ordinals (or none at all when the field is absent)
  private readonly ords: Int32Array | null = null;
  private readonly terms: readonly string[] = [];
  private readonly accepted: Uint8Array | null = null;
  /** every value of a multi-valued keyword field (else the first value from `ords`) */
  private readonly multi: MultiValues | null = null;
  /** ordinal standing for the `missing` value of a keyword (or absent) field, -1 without one */
  private readonly missingOrd: number = -1;
  private readonly missingKey: string | undefined;
  // numeric values
  private readonly values: Float64Array | null = null;
  private readonly missingValue: number | undefined;
  private readonly acceptValue: ((v: number) => boolean) | null = null;

  private counts = new Float64Array(0);
  private readonly table: BucketOrds | null = null;
  private groups: { order: Int32Array; start: Int32Array } | null = null;
  private readonly docScratch: Uint32Array;
  private readonly ordScratch: Int32Array;

  constructor(
    private readonly spec: TermsSpec,
    private readonly ctx: SegmentContext,
    singleParent: boolean,
  ) {
    const fv = fieldValues(ctx.segment, ctx.index, spec.field, ctx.limit, ctx.scope);
    const filter = filterOf(spec);
    if (fv.kind === 'numeric' || (fv.kind === 'absent' && typeof spec.missing === 'number')) {
      if (spec.include?.kind === 'regex' || spec.exclude?.kind === 'regex') {
        throw new BadRequestError(`Aggregation [${spec.name}] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of values for include/exclude clauses`);
      }
      this.values = fv.kind === 'numeric' ? fv.values : null;
      this.valueKind = fv.kind === 'numeric' ? fv.valueKind : Number.isInteger(spec.missing) ? 'long' : 'double';
      this.missingValue = numericMissing(spec.missing, this.valueKind, spec.field, ctx.nowMs);
      this.acceptValue = filter;
      this.dense = false;
    } else {
      if (fv.kind === 'ordinals') {
        this.ords = fv.ords;
        this.terms = fv.terms;
        if (spec.field !== '_index') this.multi = multiValues(ctx.segment, resolveField(ctx.segment, spec.field), fv.terms, ctx.limit, ctx.scope);
        if (filter !== null) {
          const accepted = allocate(Uint8Array, fv.terms.length, ctx.scope, spec.name);
          for (let o = 0; o < fv.terms.length; o++) if (filter(fv.terms[o]!)) accepted[o] = 1;
          this.accepted = accepted;
        }
      }
      this.valueKind = fv.kind === 'ordinals' || spec.missing !== undefined ? 'string' : null;
      if (spec.missing !== undefined) {
        this.missingKey = String(spec.missing);
        this.missingOrd = this.terms.length;
      }
      this.dense = singleParent;
    }
    if (this.dense) this.counts = allocate(Float64Array, this.terms.length + 1, ctx.scope, spec.name);
    else this.table = new BucketOrds(ctx.scope, spec.name);
    this.subs = spec.aggs.map((s) => ctx.create(s, false));
    const scratch = this.subs.length > 0 ? BATCH : 0;
    this.docScratch = allocate(Uint32Array, scratch, ctx.scope, spec.name);
    this.ordScratch = allocate(Int32Array, scratch, ctx.scope, spec.name);
  }

  collect(docs: Uint32Array, parents: Int32Array | null, n: number): void {
    const withSubs = this.subs.length > 0;
    const { docScratch, ordScratch } = this;
    let m = 0;
    if (this.values !== null || this.missingValue !== undefined) {
      const { values, missingValue, acceptValue } = this;
      const table = this.table!;
      let lastParent = -1;
      let lastValue = NaN;
      let lastOwn = -1;
      for (let i = 0; i < n; i++) {
        const doc = docs[i]!;
        let v = values === null ? NaN : values[doc]!;
        if (v !== v) {
          if (missingValue === undefined) continue;
          v = missingValue;
        }
        if (acceptValue !== null && !acceptValue(v)) continue;
        const p = parents === null ? 0 : parents[i]!;
        let own: number;
        if (v === lastValue && p === lastParent) own = lastOwn;
        else {
          own = table.add(p, v);
          if (own >= this.counts.length) this.counts = grow(this.counts, own + 1, this.ctx.scope, this.spec.name);
          lastValue = v;
          lastParent = p;
          lastOwn = own;
        }
        this.counts[own]! += 1;
        if (withSubs) {
          docScratch[m] = doc;
          ordScratch[m++] = own;
        }
      }
    } else if (this.multi !== null) {
      const { starts, ords } = this.multi;
      const { accepted, missingOrd } = this;
      for (let i = 0; i < n; i++) {
        const doc = docs[i]!;
        const p = parents === null ? 0 : parents[i]!;
        const from = starts[doc]!;
        const to = starts[doc + 1]!;
        if (from === to) {
          if (missingOrd >= 0) m = this.addValue(doc, p, missingOrd, m);
          continue;
        }
        for (let k = from; k < to; k++) {
          const o = ords[k]!;
          if (accepted === null || accepted[o] === 1) m = this.addValue(doc, p, o, m);
        }
      }
    } else {
      const { ords, accepted, missingOrd, dense } = this;
      const table = this.table;
      for (let i = 0; i < n; i++) {
        const doc = docs[i]!;
        let o = ords === null ? -1 : ords[doc]!;
        if (o < 0) {
          if (missingOrd < 0) continue;
          o = missingOrd;
        } else if (accepted !== null && accepted[o] === 0) continue;
        let own: number;
        if (dense) own = o;
        else {
          own = table!.add(parents === null ? 0 : parents[i]!, o);
          if (own >= this.counts.length) this.counts = grow(this.counts, own + 1, this.ctx.scope, this.spec.name);
        }
        this.counts[own]! += 1;
        if (withSubs) {
          docScratch[m] = doc;
          ordScratch[m++] = own;
        }
      }
    }
    if (m > 0) for (const sub of this.subs) sub.collect(docScratch, ordScratch, m);
  }

  /** Counts one value of a doc; returns the new scratch length (flushed to the subs when full). */
  private addValue(doc: number, parent: number, o: number, m: number): number {
    const own = this.dense ? o : this.table!.add(parent, o);
    if (own >= this.counts.length) this.counts = grow(this.counts, own + 1, this.ctx.scope, this.spec.name);
    this.counts[own]! += 1;
    if (this.subs.length === 0) return m;
    this.docScratch[m] = doc;
    this.ordScratch[m++] = own;
    if (m < BATCH) return m;
    for (const sub of this.subs) sub.collect(this.docScratch, this.ordScratch, m);
    return 0;
  }

  result(parent: number): BucketsPartial {
    const stringKeys = this.values === null && this.missingValue === undefined;
    if (parent === NO_BUCKET) return emptyBuckets(this.ctx, this.spec.name, stringKeys, this.valueKind);
    if (!stringKeys) return this.numericResult(parent);
    return this.dense ? this.denseResult(parent) : this.tableResult(parent);
  }

  private isWanted(o: number): boolean {
    return this.accepted === null || this.accepted[o] === 1;
  }

  /** Pushes the missing-value bucket at its place in key order before `term` (or at the end). */
  private pushMissingBefore(builder: BucketsBuilder, term: string | undefined, count: number, own: number): boolean {
    const key = this.missingKey!;
    if (term !== undefined && key > term) return false;
    if (builder.lastKey === key) builder.addToLast(count, own);
    else builder.push(key, count, own);
    return true;
  }

  private denseResult(parent: number): BucketsPartial {
    if (parent !== 0) return emptyBuckets(this.ctx, this.spec.name, true, this.valueKind);
    const T = this.terms.length;
    const counts = this.counts;
    const zeros = this.spec.minDocCount === 0;
    let n = 0;
    for (let o = 0; o < T; o++) if (counts[o]! > 0 || (zeros && this.isWanted(o))) n++;
    const missingCount = this.missingOrd >= 0 ? counts[this.missingOrd]! : 0;
    const builder = new BucketsBuilder(this.ctx, this.spec.name, n + (missingCount > 0 ? 1 : 0), true, this.spec.aggs);
    let missingPending = missingCount > 0;
    for (let o = 0; o < T; o++) {
      const c = counts[o]!;
      if (!(c > 0 || (zeros && this.isWanted(o)))) continue;
      const term = this.terms[o]!;
      if (missingPending && this.pushMissingBefore(builder, term, missingCount, this.missingOrd)) missingPending = false;
      if (builder.lastKey === term) builder.addToLast(c, c > 0 ? o : NO_BUCKET);
      else builder.push(term, c, c > 0 ? o : NO_BUCKET);
    }
    if (missingPending) this.pushMissingBefore(builder, undefined, missingCount, this.missingOrd);
    return builder.finish(this.subs, this.valueKind);
  }

  private groupsOf(parent: number): { order: Int32Array; from: number; to: number } {
    this.groups ??= this.table!.groups();
    const { order, start } = this.groups;
    if (parent + 1 >= start.length) return { order, from: 0, to: 0 };
    return { order, from: start[parent]!, to: start[parent + 1]! };
  }

  private tableResult(parent: number): BucketsPartial {
    const { order, from, to } = this.groupsOf(parent);
    const keys = this.table!.keys;
    const T = this.terms.length;
    const zeros = this.spec.minDocCount === 0;
    let missingOwn = -1;
    // the missing ordinal sorts last among ordinals
    let end = to;
    if (end > from && keys[order[end - 1]!] === this.missingOrd && this.missingOrd >= 0) missingOwn = order[--end]!;
    let n = end - from;
    if (zeros) for (let o = 0, g = from; o < T; o++) {
      if (g < end && keys[order[g]!] === o) g++;
      else if (this.isWanted(o)) n++;
    }
    const builder = new BucketsBuilder(this.ctx, this.spec.name, n + (missingOwn >= 0 ? 1 : 0), true, this.spec.aggs);
    let missingPending = missingOwn >= 0;
    const missingCount = missingOwn >= 0 ? this.counts[missingOwn]! : 0;
    const emit = (o: number, count: number, own: number) => {
      const term = this.terms[o]!;
      if (missingPending && this.pushMissingBefore(builder, term, missingCount, missingOwn)) missingPending = false;
      if (builder.lastKey === term) builder.addToLast(count, own);
      else builder.push(term, count, own);
    };
    if (zeros) {
      for (let o = 0, g = from; o < T; o++) {
        if (g < end && keys[order[g]!] === o) {
          const own = order[g++]!;
          emit(o, this.counts[own]!, own);
        } else if (this.isWanted(o)) emit(o, 0, NO_BUCKET);
      }
    } else {
      for (let g = from; g < end; g++) {
        const own = order[g]!;
        emit(keys[own]!, this.counts[own]!, own);
      }
    }
    if (missingPending) this.pushMissingBefore(builder, undefined, missingCount, missingOwn);
    return builder.finish(this.subs, this.valueKind);
  }

  private numericResult(parent: number): BucketsPartial {
    const { order, from, to } = this.groupsOf(parent);
    const keys = this.table!.keys;
    const builder = new BucketsBuilder(this.ctx, this.spec.name, to - from, false, this.spec.aggs);
    for (let g = from; g < to; g++) {
      const own = order[g]!;
      builder.push(keys[own]!, this.counts[own]!, own);
    }
    return builder.finish(this.subs, this.valueKind);
  }
}
