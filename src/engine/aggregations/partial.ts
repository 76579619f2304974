/**
 * Partial results: what one segment (or a merge of several) knows of an aggregation, in a form
 * that merges exactly. Partials are immutable once built, so cached ones can be shared; a merge
 * builds a new partial and may reuse untouched sub-trees of its inputs.
 *
 * Bucket partials are columnar and sorted by key (numbers, or strings by UTF-16 code units), so
 * merging is a linear walk. `ownBytes` is what the node itself holds (not its sub-partials): a
 * merge releases its inputs' ownBytes and charges its own.
 */
import type { SegmentReader } from '../segment-reader.js';
import type { HyperLogLog } from './sketches/hyperloglog.js';
import type { QuantileSketch } from './sketches/quantile-sketch.js';
import { OBJECT_BYTES, REF_BYTES } from './memory.js';

/** How a field's values look: decides the Elasticsearch result type (sterms, lterms, dterms). */
export type ValueKind = 'string' | 'long' | 'double' | 'date' | 'boolean';

export interface StatsPartial {
  kind: 'stats';
  count: number;
  /** Kahan sum and its compensation */
  sum: number;
  comp: number;
  min: number;
  max: number;
  sumOfSquares: number;
  valueKind: ValueKind | null;
  ownBytes: number;
}

export interface CardinalityPartial {
  kind: 'cardinality';
  sketch: HyperLogLog;
  ownBytes: number;
}

export interface PercentilesPartial {
  kind: 'percentiles';
  sketch: QuantileSketch;
  valueKind: ValueKind | null;
  ownBytes: number;
}

export interface TopHitCandidate {
  index: string;
  /** null for a candidate that came from another node with its document (`stored`) */
  segment: SegmentReader | null;
  doc: number;
  /** the document, read where the segment is (a partial sent between nodes) */
  stored?: { id: string; source: string };
  /** position of the segment in the request, for ties */
  segmentOrder: number;
  values: Array<number | string | null>;
}

export interface TopHitsPartial {
  kind: 'top_hits';
  total: number;
  /** best first, at most from + size */
  hits: TopHitCandidate[];
  ownBytes: number;
}

export interface BucketsPartial {
  kind: 'buckets';
  /** ascending and distinct; for range and filters the bucket's position in the spec */
  keys: Float64Array | string[];
  counts: Float64Array;
  /** subs[i][j]: sub-aggregation j of bucket i; null without sub-aggregations */
  subs: Partial[][] | null;
  /** docs in buckets an index left out (terms) */
  otherDocCount: number;
  /** the largest count a left-out term could have: 0 exact, -1 unknown (terms) */
  errorBound: number;
  /** per bucket: the count it may miss from indexes that left it out; null when all 0 */
  bucketErrors: Float64Array | null;
  valueKind: ValueKind | null;
  ownBytes: number;
}

export interface SingleBucketPartial {
  kind: 'single';
  count: number;
  subs: Partial[];
  ownBytes: number;
}

export type Partial = StatsPartial | CardinalityPartial | PercentilesPartial | TopHitsPartial | BucketsPartial | SingleBucketPartial;

export const STATS_BYTES = OBJECT_BYTES + 8 * 8;

export function emptyStats(valueKind: ValueKind | null = null): StatsPartial {
  return { kind: 'stats', count: 0, sum: 0, comp: 0, min: Infinity, max: -Infinity, sumOfSquares: 0, valueKind, ownBytes: STATS_BYTES };
}

/** Bytes of a bucket partial's own arrays for n buckets. */
export function bucketsBytes(n: number, stringKeys: boolean, hasSubs: boolean, withErrors: boolean): number {
  let bytes = OBJECT_BYTES + n * 8 + n * (stringKeys ? REF_BYTES : 8);
  if (hasSubs) bytes += n * (REF_BYTES + OBJECT_BYTES / 2);
  if (withErrors) bytes += n * 8;
  return bytes;
}

/** Every byte of a partial tree, strings of keys included (for the cache, which keeps them alive). */
export function retainedBytes(p: Partial): number {
  let bytes = p.ownBytes;
  switch (p.kind) {
    case 'buckets':
      if (Array.isArray(p.keys)) for (const k of p.keys) bytes += 24 + k.length * 2;
      if (p.subs !== null) for (const row of p.subs) for (const s of row) bytes += retainedBytes(s);
      break;
    case 'single':
      for (const s of p.subs) bytes += retainedBytes(s);
      break;
    default:
      break;
  }
  return bytes;
}

/** Sum of ownBytes over the tree (what a request is charged for holding it). */
export function treeBytes(p: Partial): number {
  let bytes = p.ownBytes;
  if (p.kind === 'buckets' && p.subs !== null) for (const row of p.subs) for (const s of row) bytes += treeBytes(s);
  if (p.kind === 'single') for (const s of p.subs) bytes += treeBytes(s);
  return bytes;
}
