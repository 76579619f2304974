/**
 * cardinality: one HyperLogLog per parent bucket, fed with 32-bit hashes of the values (keyword
 * hashes computed once per term of the segment).
 */
import { NO_BUCKET, type Collector, type SegmentContext } from '../collector.js';
import { fieldValues, numericMissing } from '../field-values.js';
import { OBJECT_BYTES, REF_BYTES, allocate } from '../memory.js';
import type { CardinalityPartial } from '../partial.js';
import { HyperLogLog, precisionFor } from '../sketches/hyperloglog.js';
import { hashNumber, hashString } from '../sketches/hash.js';
import type { CardinalitySpec } from '../spec.js';

export class CardinalityCollector implements Collector {
  private readonly sketches: Array<HyperLogLog | undefined> = [];
  private readonly precision: number;
  private readonly values: Float64Array | null = null;
  private readonly ords: Int32Array | null = null;
  private readonly terms: readonly string[] = [];
  private termHashes: Int32Array | null = null;
  private termHashed: Uint8Array | null = null;
  private readonly missingHash: number | undefined;

  constructor(
    private readonly spec: CardinalitySpec,
    private readonly ctx: SegmentContext,
  ) {
    this.precision = precisionFor(spec.precisionThreshold);
    const fv = fieldValues(ctx.segment, ctx.index, spec.field, ctx.limit, ctx.scope);
    const m = spec.missing;
    if (fv.kind === 'numeric') {
      this.values = fv.values;
      const missing = numericMissing(m, fv.valueKind, spec.field, ctx.nowMs);
      this.missingHash = missing === undefined ? undefined : hashNumber(missing);
    } else {
      if (fv.kind === 'ordinals') {
        this.ords = fv.ords;
        this.terms = fv.terms;
      }
      this.missingHash = m === undefined ? undefined : typeof m === 'number' ? hashNumber(m) : hashString(m);
    }
  }

  private sketchOf(parent: number): HyperLogLog {
    let s = this.sketches[parent];
    if (s === undefined) {
      this.ctx.scope.charge(REF_BYTES * Math.max(0, parent + 1 - this.sketches.length), this.spec.name);
      s = new HyperLogLog(this.precision, this.spec.precisionThreshold);
      this.ctx.scope.charge(s.bytes, this.spec.name);
      this.sketches[parent] = s;
    }
    return s;
  }

  private termHash(ord: number): number {
    if (this.termHashes === null) {
      this.termHashes = allocate(Int32Array, this.terms.length, this.ctx.scope, this.spec.name);
      this.termHashed = allocate(Uint8Array, this.terms.length, this.ctx.scope, this.spec.name);
    }
    if (this.termHashed![ord] === 0) {
      this.termHashes[ord] = hashString(this.terms[ord]!);
      this.termHashed![ord] = 1;
    }
    return this.termHashes[ord]! >>> 0;
  }

  collect(docs: Uint32Array, parents: Int32Array | null, n: number): void {
    const scope = this.ctx.scope;
    const { values, ords, missingHash } = this;
    let current = -1;
    let sketch: HyperLogLog | null = null;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      let h: number;
      if (values !== null) {
        const v = values[doc]!;
        if (v !== v) {
          if (missingHash === undefined) continue;
          h = missingHash;
        } else {
          h = hashNumber(v);
        }
      } else if (ords !== null) {
        const o = ords[doc]!;
        if (o < 0) {
          if (missingHash === undefined) continue;
          h = missingHash;
        } else {
          h = this.termHash(o);
        }
      } else {
        if (missingHash === undefined) continue;
        h = missingHash;
      }
      const p = parents === null ? 0 : parents[i]!;
      if (p !== current) {
        sketch = this.sketchOf(p);
        current = p;
      }
      sketch!.add(h, scope);
    }
  }

  result(parent: number): CardinalityPartial {
    const s = parent === NO_BUCKET ? undefined : this.sketches[parent];
    const sketch = s ?? new HyperLogLog(this.precision, this.spec.precisionThreshold);
    const ownBytes = OBJECT_BYTES + sketch.bytes;
    this.ctx.memory.charge(ownBytes, this.spec.name);
    return { kind: 'cardinality', sketch, ownBytes };
  }
}
