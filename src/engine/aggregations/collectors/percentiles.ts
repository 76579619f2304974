/**
 * percentiles: one quantile sketch per parent bucket. Numeric fields only (long, double, and
 * dates as epoch ms): keyword, boolean and text fields are a 400, as the service has done since
 * 1.23.0.
 */
import { NO_BUCKET, type Collector, type SegmentContext } from '../collector.js';
import { fieldValues, numericMissing, unsupportedField } from '../field-values.js';
import { OBJECT_BYTES, REF_BYTES } from '../memory.js';
import type { PercentilesPartial, ValueKind } from '../partial.js';
import { QuantileSketch } from '../sketches/quantile-sketch.js';
import type { PercentilesSpec } from '../spec.js';

export class PercentilesCollector implements Collector {
  private readonly sketches: Array<QuantileSketch | undefined> = [];
  private readonly values: Float64Array | null = null;
  private readonly missing: number | undefined;
  private readonly valueKind: ValueKind | null = null;

  constructor(
    private readonly spec: PercentilesSpec,
    private readonly ctx: SegmentContext,
  ) {
    const fv = fieldValues(ctx.segment, ctx.index, spec.field, ctx.limit, ctx.scope);
    if (fv.kind === 'ordinals' || (fv.kind === 'numeric' && fv.valueKind === 'boolean')) {
      throw unsupportedField(spec.field, fv, 'percentiles');
    }
    if (fv.kind === 'numeric') {
      this.values = fv.values;
      this.valueKind = fv.valueKind;
      this.missing = numericMissing(spec.missing, fv.valueKind, spec.field, ctx.nowMs);
    } else {
      this.missing = typeof spec.missing === 'number' ? spec.missing : undefined;
    }
  }

  collect(docs: Uint32Array, parents: Int32Array | null, n: number): void {
    const scope = this.ctx.scope;
    const { values, missing } = this;
    let current = -1;
    let sketch: QuantileSketch | null = null;
    for (let i = 0; i < n; i++) {
      let v: number;
      if (values === null) {
        if (missing === undefined) return;
        v = missing;
      } else {
        v = values[docs[i]!]!;
        if (v !== v) {
          if (missing === undefined) continue;
          v = missing;
        }
      }
      const p = parents === null ? 0 : parents[i]!;
      if (p !== current) {
        sketch = this.sketches[p] ?? null;
        if (sketch === null) {
          scope.charge(REF_BYTES * Math.max(1, p + 1 - this.sketches.length), this.spec.name);
          sketch = new QuantileSketch();
          scope.charge(sketch.bytes, this.spec.name);
          this.sketches[p] = sketch;
        }
        current = p;
      }
      sketch!.add(v, scope);
    }
  }

  result(parent: number): PercentilesPartial {
    const s = parent === NO_BUCKET ? undefined : this.sketches[parent];
    const sketch = s ?? new QuantileSketch();
    const ownBytes = OBJECT_BYTES + sketch.bytes;
    this.ctx.memory.charge(ownBytes, this.spec.name);
    return { kind: 'percentiles', sketch, valueKind: this.valueKind, ownBytes };
  }
}
