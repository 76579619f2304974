/**
 * avg, sum, min, max, stats, extended_stats and value_count: count, Kahan sum, min, max and sum
 * of squares per parent bucket, in typed arrays. value_count also counts keyword values.
 */
import { NO_BUCKET, maxParent, type Collector, type SegmentContext } from '../collector.js';
import { fieldValues, numericMissing, unsupportedField } from '../field-values.js';
import { grow } from '../memory.js';
import { STATS_BYTES, emptyStats, type StatsPartial, type ValueKind } from '../partial.js';
import type { StatsSpec } from '../spec.js';

export class StatsCollector implements Collector {
  private counts = new Float64Array(0);
  private sums = new Float64Array(0);
  private comps = new Float64Array(0);
  private mins = new Float64Array(0);
  private maxs = new Float64Array(0);
  private squares = new Float64Array(0);
  private readonly values: Float64Array | null = null;
  private readonly ords: Int32Array | null = null;
  private readonly missing: number | undefined;
  private readonly valueKind: ValueKind | null = null;
  private readonly squaresWanted: boolean;

  constructor(
    private readonly spec: StatsSpec,
    private readonly ctx: SegmentContext,
  ) {
    this.squaresWanted = spec.type === 'extended_stats';
    const fv = fieldValues(ctx.segment, ctx.index, spec.field, ctx.limit, ctx.scope);
    if (fv.kind === 'numeric') {
      this.values = fv.values;
      this.valueKind = fv.valueKind;
      this.missing = numericMissing(spec.missing, fv.valueKind, spec.field, ctx.nowMs);
    } else if (fv.kind === 'ordinals') {
      if (spec.type !== 'value_count') throw unsupportedField(spec.field, fv, spec.type);
      this.ords = fv.ords;
      this.valueKind = 'string';
      this.missing = spec.missing === undefined ? undefined : 0;
    } else {
      this.missing = typeof spec.missing === 'number' ? spec.missing : spec.missing === undefined ? undefined : Number(spec.missing);
      if (this.missing !== undefined && !Number.isFinite(this.missing)) this.missing = spec.type === 'value_count' ? 0 : undefined;
    }
  }

  private ensure(length: number): void {
    if (this.counts.length >= length) return;
    const s = this.ctx.scope;
    this.counts = grow(this.counts, length, s, this.spec.name);
    this.sums = grow(this.sums, length, s, this.spec.name);
    this.comps = grow(this.comps, length, s, this.spec.name);
    this.mins = grow(this.mins, length, s, this.spec.name, Infinity);
    this.maxs = grow(this.maxs, length, s, this.spec.name, -Infinity);
    if (this.squaresWanted) this.squares = grow(this.squares, length, s, this.spec.name);
  }

  collect(docs: Uint32Array, parents: Int32Array | null, n: number): void {
    if (n === 0) return;
    this.ensure(maxParent(parents, n) + 1);
    const { counts, sums, comps, mins, maxs, squares, values, ords, missing } = this;
    const squaresWanted = this.squaresWanted;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      let v: number;
      if (values !== null) {
        v = values[doc]!;
        if (v !== v) {
          if (missing === undefined) continue;
          v = missing;
        }
      } else if (ords !== null) {
        if (ords[doc]! < 0 && missing === undefined) continue;
        v = 0;
      } else {
        if (missing === undefined) continue;
        v = missing;
      }
      const p = parents === null ? 0 : parents[i]!;
      counts[p]! += 1;
      const y = v - comps[p]!;
      const t = sums[p]! + y;
      comps[p] = t - sums[p]! - y;
      sums[p] = t;
      if (v < mins[p]!) mins[p] = v;
      if (v > maxs[p]!) maxs[p] = v;
      if (squaresWanted) squares[p]! += v * v;
    }
  }

  result(parent: number): StatsPartial {
    this.ctx.memory.charge(STATS_BYTES, this.spec.name);
    if (parent === NO_BUCKET || parent >= this.counts.length) return emptyStats(this.valueKind);
    return {
      kind: 'stats',
      count: this.counts[parent]!,
      sum: this.sums[parent]!,
      comp: this.comps[parent]!,
      min: this.mins[parent]!,
      max: this.maxs[parent]!,
      sumOfSquares: this.squaresWanted ? this.squares[parent]! : 0,
      valueKind: this.valueKind,
      ownBytes: STATS_BYTES,
    };
  }
}
