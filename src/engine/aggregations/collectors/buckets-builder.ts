/**
 * Builds a bucket partial from buckets pushed in ascending key order, each with the ordinal its
 * sub-collectors used (NO_BUCKET for a bucket without docs). Charged up front for `capacity`.
 */
import { NO_BUCKET, type Collector, type SegmentContext } from '../collector.js';
import { allocate } from '../memory.js';
import { mergePartials } from '../merge.js';
import { bucketsBytes, type BucketsPartial, type Partial, type ValueKind } from '../partial.js';
import type { AggSpec } from '../spec.js';

export class BucketsBuilder {
  private readonly keys: string[] | Float64Array;
  private readonly counts: Float64Array;
  private readonly owns: Int32Array;
  /** bucket index → a second ordinal whose docs belong to the same key (the `missing` value of terms) */
  private readonly extraOwns = new Map<number, number>();
  private readonly ownBytes: number;
  n = 0;

  constructor(
    private readonly ctx: SegmentContext,
    label: string,
    capacity: number,
    stringKeys: boolean,
    private readonly specs: AggSpec[],
  ) {
    this.ownBytes = bucketsBytes(capacity, stringKeys, specs.length > 0, false);
    ctx.memory.charge(this.ownBytes, label);
    this.keys = stringKeys ? new Array<string>(capacity) : new Float64Array(capacity);
    this.counts = new Float64Array(capacity);
    this.owns = allocate(Int32Array, capacity, ctx.scope, label);
  }

  get lastKey(): string | number | undefined {
    return this.n === 0 ? undefined : this.keys[this.n - 1];
  }

  push(key: string | number, count: number, own: number): void {
    (this.keys as Array<string | number>)[this.n] = key;
    this.counts[this.n] = count;
    this.owns[this.n] = own;
    this.n++;
  }

  /** Adds docs of another ordinal to the last bucket pushed. */
  addToLast(count: number, own: number): void {
    this.counts[this.n - 1]! += count;
    if (this.owns[this.n - 1] === NO_BUCKET) this.owns[this.n - 1] = own;
    else this.extraOwns.set(this.n - 1, own);
  }

  finish(subs: Collector[], valueKind: ValueKind | null): BucketsPartial {
    const n = this.n;
    let rows: Partial[][] | null = null;
    if (subs.length > 0) {
      rows = new Array<Partial[]>(n);
      for (let i = 0; i < n; i++) {
        const own = this.owns[i]!;
        const extra = this.extraOwns.get(i);
        rows[i] = subs.map((c, j) => {
          const r = c.result(own);
          return extra === undefined ? r : mergePartials(this.specs[j]!, r, c.result(extra), this.ctx.memory);
        });
      }
    }
    let keys: string[] | Float64Array;
    if (Array.isArray(this.keys)) {
      this.keys.length = n;
      keys = this.keys;
    } else {
      keys = this.keys.subarray(0, n);
    }
    this.ctx.scope.release(this.owns.byteLength);
    return {
      kind: 'buckets',
      keys,
      counts: this.counts.subarray(0, n),
      subs: rows,
      otherDocCount: 0,
      errorBound: 0,
      bucketErrors: null,
      valueKind,
      ownBytes: this.ownBytes,
    };
  }
}

/** An empty bucket partial (no docs, or a parent bucket nothing fell into). */
export function emptyBuckets(ctx: SegmentContext, label: string, stringKeys: boolean, valueKind: ValueKind | null): BucketsPartial {
  const ownBytes = bucketsBytes(0, stringKeys, false, false);
  ctx.memory.charge(ownBytes, label);
  return {
    kind: 'buckets',
    keys: stringKeys ? [] : new Float64Array(0),
    counts: new Float64Array(0),
    subs: null,
    otherDocCount: 0,
    errorBound: 0,
    bucketErrors: null,
    valueKind,
    ownBytes,
  };
}
