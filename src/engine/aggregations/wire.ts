/**
 * Partial results as JSON, so that a node can send what its indexes know of an aggregation to
 * the node that merges them (mergePartials) and finalizes the response, exactly as partials of
 * segments merge on one node. Typed arrays travel as number arrays, sketches in their own form,
 * and a top_hits candidate with its document read where its segment is.
 */
import { storedDocument } from '../search/index.js';
import type { Account } from './memory.js';
import type { Partial, TopHitCandidate, ValueKind } from './partial.js';
import { HyperLogLog, type HyperLogLogWire } from './sketches/hyperloglog.js';
import { QuantileSketch, type QuantileSketchWire } from './sketches/quantile-sketch.js';

export type PartialWire =
  | { kind: 'stats'; count: number; sum: number; comp: number; min: number | null; max: number | null; sumOfSquares: number; valueKind: ValueKind | null; ownBytes: number }
  | { kind: 'cardinality'; sketch: HyperLogLogWire; ownBytes: number }
  | { kind: 'percentiles'; sketch: QuantileSketchWire; valueKind: ValueKind | null; ownBytes: number }
  | { kind: 'top_hits'; total: number; hits: TopHitWire[]; ownBytes: number }
  | {
      kind: 'buckets';
      keys: number[] | string[];
      stringKeys: boolean;
      counts: number[];
      subs: PartialWire[][] | null;
      otherDocCount: number;
      errorBound: number;
      bucketErrors: number[] | null;
      valueKind: ValueKind | null;
      ownBytes: number;
    }
  | { kind: 'single'; count: number; subs: PartialWire[]; ownBytes: number };

interface TopHitWire {
  index: string;
  doc: number;
  segmentOrder: number;
  values: Array<number | string | null>;
  id: string;
  source: string;
}

export function partialToWire(p: Partial): PartialWire {
  switch (p.kind) {
    case 'stats':
      // an empty stats partial holds ±Infinity, which JSON has no word for
      return { ...p, min: Number.isFinite(p.min) ? p.min : null, max: Number.isFinite(p.max) ? p.max : null };
    case 'cardinality':
      return { kind: 'cardinality', sketch: p.sketch.toWire(), ownBytes: p.ownBytes };
    case 'percentiles':
      return { kind: 'percentiles', sketch: p.sketch.toWire(), valueKind: p.valueKind, ownBytes: p.ownBytes };
    case 'top_hits':
      return { kind: 'top_hits', total: p.total, hits: p.hits.map(topHitToWire), ownBytes: p.ownBytes };
    case 'buckets':
      return {
        kind: 'buckets',
        keys: Array.isArray(p.keys) ? p.keys : Array.from(p.keys),
        stringKeys: Array.isArray(p.keys),
        counts: Array.from(p.counts),
        subs: p.subs === null ? null : p.subs.map((row) => row.map(partialToWire)),
        otherDocCount: p.otherDocCount,
        errorBound: p.errorBound,
        bucketErrors: p.bucketErrors === null ? null : Array.from(p.bucketErrors),
        valueKind: p.valueKind,
        ownBytes: p.ownBytes,
      };
    case 'single':
      return { kind: 'single', count: p.count, subs: p.subs.map(partialToWire), ownBytes: p.ownBytes };
  }
}

function topHitToWire(c: TopHitCandidate): TopHitWire {
  const { id, source } = c.stored ?? storedDocument(c.segment!, c.doc);
  return { index: c.index, doc: c.doc, segmentOrder: c.segmentOrder, values: c.values, id, source };
}

/** The partial back from JSON; `account` is charged for what it holds, as for any partial built here. */
export function partialFromWire(w: PartialWire, account: Account): Partial {
  account.charge(w.ownBytes, w.kind);
  switch (w.kind) {
    case 'stats':
      return { ...w, min: w.min ?? Infinity, max: w.max ?? -Infinity };
    case 'cardinality':
      return { kind: 'cardinality', sketch: HyperLogLog.fromWire(w.sketch, account), ownBytes: w.ownBytes };
    case 'percentiles':
      return { kind: 'percentiles', sketch: QuantileSketch.fromWire(w.sketch, account), valueKind: w.valueKind, ownBytes: w.ownBytes };
    case 'top_hits':
      return {
        kind: 'top_hits',
        total: w.total,
        hits: w.hits.map((h) => ({ index: h.index, segment: null, doc: h.doc, segmentOrder: h.segmentOrder, values: h.values, stored: { id: h.id, source: h.source } })),
        ownBytes: w.ownBytes,
      };
    case 'buckets':
      return {
        kind: 'buckets',
        keys: w.stringKeys ? (w.keys as string[]) : Float64Array.from(w.keys as number[]),
        counts: Float64Array.from(w.counts),
        subs: w.subs === null ? null : w.subs.map((row) => row.map((s) => partialFromWire(s, account))),
        otherDocCount: w.otherDocCount,
        errorBound: w.errorBound,
        bucketErrors: w.bucketErrors === null ? null : Float64Array.from(w.bucketErrors),
        valueKind: w.valueKind,
        ownBytes: w.ownBytes,
      };
    case 'single':
      return { kind: 'single', count: w.count, subs: w.subs.map((s) => partialFromWire(s, account)), ownBytes: w.ownBytes };
  }
}
