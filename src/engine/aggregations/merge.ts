/**
 * Merging two partials of the same aggregation into a new one, exactly: counts and sums add,
 * sketches merge, sorted bucket columns are walked side by side. Inputs are never changed;
 * sub-trees found on one side only are reused as they are. Each merge charges what it builds and
 * releases its inputs' own bytes.
 */
import { BadRequestError } from '../../common/errors.js';
import { OBJECT_BYTES, type Account } from './memory.js';
import {
  STATS_BYTES,
  bucketsBytes,
  type BucketsPartial,
  type Partial,
  type StatsPartial,
  type TopHitsPartial,
} from './partial.js';
import { HyperLogLog } from './sketches/hyperloglog.js';
import { QuantileSketch } from './sketches/quantile-sketch.js';
import { candidateBytes, compareCandidates, sortDirections } from './collectors/top-hits.js';
import { isBucketSpec, type AggSpec } from './spec.js';

export function mergePartials(spec: AggSpec, a: Partial, b: Partial, account: Account): Partial {
  let out: Partial;
  if (a.kind === 'stats' && b.kind === 'stats') out = mergeStats(a, b, account);
  else if (a.kind === 'cardinality' && b.kind === 'cardinality') {
    const sketch = HyperLogLog.merge(a.sketch, b.sketch, account);
    account.charge(OBJECT_BYTES, spec.name);
    out = { kind: 'cardinality', sketch, ownBytes: OBJECT_BYTES + sketch.bytes };
  } else if (a.kind === 'percentiles' && b.kind === 'percentiles') {
    const sketch = QuantileSketch.merge(a.sketch, b.sketch, account);
    account.charge(OBJECT_BYTES, spec.name);
    out = { kind: 'percentiles', sketch, valueKind: a.valueKind ?? b.valueKind, ownBytes: OBJECT_BYTES + sketch.bytes };
  } else if (a.kind === 'top_hits' && b.kind === 'top_hits' && spec.type === 'top_hits') {
    out = mergeTopHits(spec.from + spec.size, sortDirections(spec), a, b, account);
  } else if (a.kind === 'single' && b.kind === 'single' && isBucketSpec(spec)) {
    const subs = spec.aggs.map((s, j) => mergePartials(s, a.subs[j]!, b.subs[j]!, account));
    const ownBytes = OBJECT_BYTES + subs.length * 8;
    account.charge(ownBytes, spec.name);
    out = { kind: 'single', count: a.count + b.count, subs, ownBytes };
  } else if (a.kind === 'buckets' && b.kind === 'buckets' && isBucketSpec(spec)) {
    return mergeBuckets(spec.aggs, spec.name, 'field' in spec ? spec.field : spec.name, a, b, account);
  } else {
    throw new Error(`cannot merge partials of kinds ${a.kind} and ${b.kind} for ${spec.name}`);
  }
  account.release(a.ownBytes + b.ownBytes);
  return out;
}

function kahanAdd(sum: number, comp: number, v: number): [number, number] {
  const y = v - comp;
  const t = sum + y;
  return [t, t - sum - y];
}

function mergeStats(a: StatsPartial, b: StatsPartial, account: Account): StatsPartial {
  account.charge(STATS_BYTES, 'stats');
  let [sum, comp] = kahanAdd(a.sum, a.comp, b.sum);
  [sum, comp] = kahanAdd(sum, comp, -b.comp);
  return {
    kind: 'stats',
    count: a.count + b.count,
    sum,
    comp,
    min: Math.min(a.min, b.min),
    max: Math.max(a.max, b.max),
    sumOfSquares: a.sumOfSquares + b.sumOfSquares,
    valueKind: a.valueKind ?? b.valueKind,
    ownBytes: STATS_BYTES,
  };
}

function mergeTopHits(
  window: number,
  dirs: { desc: boolean[]; missingFirst: boolean[] },
  a: TopHitsPartial,
  b: TopHitsPartial,
  account: Account,
): TopHitsPartial {
  const hits = [...a.hits, ...b.hits].sort((x, y) => compareCandidates(x, y, dirs.desc, dirs.missingFirst)).slice(0, window);
  const ownBytes = OBJECT_BYTES + hits.length * candidateBytes(dirs.desc.length);
  account.charge(ownBytes, 'top_hits');
  return { kind: 'top_hits', total: a.total + b.total, hits, ownBytes };
}

function isEmpty(p: BucketsPartial): boolean {
  return p.counts.length === 0 && p.otherDocCount === 0 && p.errorBound === 0;
}

function mergeBuckets(specs: AggSpec[], name: string, field: string, a: BucketsPartial, b: BucketsPartial, account: Account): BucketsPartial {
  // one side adds nothing: the other is the answer as it is
  if (isEmpty(b)) {
    account.release(b.ownBytes);
    return a.valueKind === null && b.valueKind !== null ? { ...a, valueKind: b.valueKind } : a;
  }
  if (isEmpty(a)) {
    account.release(a.ownBytes);
    return b.valueKind === null && a.valueKind !== null ? { ...b, valueKind: a.valueKind } : b;
  }
  const stringKeys = Array.isArray(a.keys);
  if (stringKeys !== Array.isArray(b.keys)) {
    throw new BadRequestError(`the field [${field}] has different types (keyword and numeric) in the targeted indices; cannot aggregate [${name}] over them`);
  }
  const na = a.keys.length;
  const nb = b.keys.length;
  const max = na + nb;
  const hasSubs = a.subs !== null || b.subs !== null;
  const withErrors = a.bucketErrors !== null || b.bucketErrors !== null || a.errorBound > 0 || b.errorBound > 0;
  const upper = bucketsBytes(max, stringKeys, hasSubs, withErrors);
  account.charge(upper, name);
  const keysOut: string[] | Float64Array = stringKeys ? new Array<string>(max) : new Float64Array(max);
  const counts = new Float64Array(max);
  const subs: Partial[][] | null = hasSubs ? [] : null;
  const errors = withErrors ? new Float64Array(max) : null;
  const aBound = Math.max(0, a.errorBound);
  const bBound = Math.max(0, b.errorBound);
  let i = 0;
  let j = 0;
  let n = 0;
  const ka = a.keys;
  const kb = b.keys;
  while (i < na || j < nb) {
    let c: number;
    if (i >= na) c = 1;
    else if (j >= nb) c = -1;
    else {
      const x = ka[i]!;
      const y = kb[j]!;
      c = x < y ? -1 : x > y ? 1 : 0;
    }
    if (c < 0) {
      keysOut[n] = ka[i]!;
      counts[n] = a.counts[i]!;
      if (subs !== null) subs.push(a.subs![i]!);
      if (errors !== null) errors[n] = (a.bucketErrors?.[i] ?? 0) + bBound;
      i++;
    } else if (c > 0) {
      keysOut[n] = kb[j]!;
      counts[n] = b.counts[j]!;
      if (subs !== null) subs.push(b.subs![j]!);
      if (errors !== null) errors[n] = (b.bucketErrors?.[j] ?? 0) + aBound;
      j++;
    } else {
      keysOut[n] = ka[i]!;
      counts[n] = a.counts[i]! + b.counts[j]!;
      if (subs !== null) {
        const ra = a.subs![i]!;
        const rb = b.subs![j]!;
        subs.push(specs.map((s, k) => mergePartials(s, ra[k]!, rb[k]!, account)));
      }
      if (errors !== null) errors[n] = (a.bucketErrors?.[i] ?? 0) + (b.bucketErrors?.[j] ?? 0);
      i++;
      j++;
    }
    n++;
  }
  let keys: string[] | Float64Array;
  if (Array.isArray(keysOut)) {
    keysOut.length = n;
    keys = keysOut;
  } else {
    keys = keysOut.subarray(0, n);
  }
  const out: BucketsPartial = {
    kind: 'buckets',
    keys,
    counts: counts.subarray(0, n),
    subs,
    otherDocCount: a.otherDocCount + b.otherDocCount,
    errorBound: sumBounds(a.errorBound, b.errorBound),
    bucketErrors: errors === null ? null : errors.subarray(0, n),
    valueKind: a.valueKind ?? b.valueKind,
    ownBytes: upper,
  };
  account.release(a.ownBytes + b.ownBytes);
  return out;
}

function sumBounds(a: number, b: number): number {
  return a < 0 || b < 0 ? -1 : a + b;
}
