/**
 * The index-level step: once every segment of an index is merged, each terms aggregation (at any
 * depth) keeps its best shard_size buckets, as an Elasticsearch shard does, and records how many
 * docs it left out and how large a left-out term's count could be.
 */
import type { Account } from './memory.js';
import { bucketComparator, isCountDesc, isKeyOrder } from './order.js';
import { selectTop } from './top-k.js';
import { bucketsBytes, treeBytes, type BucketsPartial, type Partial } from './partial.js';
import { isBucketSpec, type AggSpec, type TermsSpec } from './spec.js';

export function shardSizeOf(spec: TermsSpec, indexCount: number): number {
  if (spec.shardSize !== undefined) return Math.max(spec.shardSize, spec.size);
  return indexCount === 1 ? spec.size : Math.floor(spec.size * 1.5 + 10);
}

function containsTerms(spec: AggSpec): boolean {
  return isBucketSpec(spec) && (spec.type === 'terms' || spec.aggs.some(containsTerms));
}

export function shardReduce(spec: AggSpec, p: Partial, account: Account, indexCount: number): Partial {
  if (!isBucketSpec(spec) || !containsTerms(spec)) return p;
  if (p.kind === 'single') {
    const subs = p.subs.map((s, j) => shardReduce(spec.aggs[j]!, s, account, indexCount));
    return { ...p, subs };
  }
  if (p.kind !== 'buckets') return p;
  let out = spec.type === 'terms' ? truncate(spec, p, account, indexCount) : p;
  if (out.subs !== null && spec.aggs.some(containsTerms)) {
    const rows = out.subs.map((row) => row.map((s, j) => shardReduce(spec.aggs[j]!, s, account, indexCount)));
    out = { ...out, subs: rows };
  }
  return out;
}

function truncate(spec: TermsSpec, p: BucketsPartial, account: Account, indexCount: number): BucketsPartial {
  const n = p.counts.length;
  const shardSize = shardSizeOf(spec, indexCount);
  const min = spec.shardMinDocCount;
  if (n <= shardSize && (min <= 0 || p.counts.every((c) => c >= min))) return p;
  const { top, accepted } = selectTop(n, (i) => p.counts[i]! >= min, bucketComparator(spec.order, spec.aggs, p, account), shardSize, account, spec.name);
  let errorBound = p.errorBound;
  if (accepted > shardSize) {
    const last = top[top.length - 1]!;
    errorBound = isCountDesc(spec.order) ? p.counts[last]! : isKeyOrder(spec.order) ? 0 : -1;
  }
  const kept = Int32Array.from(top).sort();
  let other = p.otherDocCount;
  for (let i = 0, k = 0; i < n; i++) {
    if (k < kept.length && kept[k] === i) {
      k++;
      continue;
    }
    other += p.counts[i]!;
    if (p.subs !== null) for (const s of p.subs[i]!) account.release(treeBytes(s));
  }
  const stringKeys = Array.isArray(p.keys);
  const ownBytes = bucketsBytes(kept.length, stringKeys, p.subs !== null, p.bucketErrors !== null);
  account.charge(ownBytes, spec.name);
  const pick = <T>(from: ArrayLike<T>): T[] => Array.from(kept, (i) => from[i]!);
  const out: BucketsPartial = {
    kind: 'buckets',
    keys: stringKeys ? pick(p.keys as string[]) : Float64Array.from(kept, (i) => p.keys[i] as number),
    counts: Float64Array.from(kept, (i) => p.counts[i]!),
    subs: p.subs === null ? null : pick(p.subs),
    otherDocCount: other,
    errorBound,
    bucketErrors: p.bucketErrors === null ? null : Float64Array.from(kept, (i) => p.bucketErrors![i]!),
    valueKind: p.valueKind,
    ownBytes,
  };
  account.release(p.ownBytes);
  account.release(top.buffer.byteLength);
  return out;
}
