/**
 * Search over a list of segments: per segment plan, evaluate, count and collect the top hits;
 * then merge the per-segment tops, cut the requested page and fetch only its sources.
 */
import { BadRequestError } from '../../common/errors.js';
import type { Query } from '../../query/index.js';
import { Deadline } from './deadline.js';
import { docOrderDirection } from './doc-order.js';
import { EvalContext, evaluate, knownMatchCount } from './evaluate.js';
import { planQuery } from './plan.js';
import type { PlanNode } from './plan-node.js';
import { scoreDocs } from './score.js';
import {
  SEGMENT_STRIDE,
  SegmentSort,
  compareSortValues,
  effectiveSort,
  type EffectiveSortKey,
  type SortValue,
} from './sort-keys.js';
import { requiredTsInterval, segmentCanMatch, type TsInterval } from './time-pruning.js';
import { topK, topKByBlocks, topKInDocOrder } from './top-k.js';
import { BLOCK_DOCS, columnBlocks } from './column-blocks.js';
import type { SearchHit, SearchRequest, SearchResult, SearchTarget } from './types.js';
import { withoutDeleted } from './live-docs.js';
import { storedDocument } from './stored-document.js';

export interface MatchOptions {
  /** `now` for date math, epoch ms; defaults to Date.now() */
  nowMs?: number;
  /** absolute time after which the work stops with QueryTimeoutError */
  deadlineMs?: number;
  /** count at most this many matches per segment */
  terminateAfter?: number;
}

/** One segment's part of a search: its visible docs, fixed before any work starts. */
interface Bound {
  target: SearchTarget;
  order: number;
  limit: number;
}

interface Candidate {
  bound: Bound;
  doc: number;
  score: number;
  values: SortValue[];
}

function snapshot(targets: readonly SearchTarget[]): Bound[] {
  return targets.map((target, i) => {
    const numDocs = target.segment.numDocs;
    const limit = Math.max(0, Math.min(target.docLimit ?? numDocs, numDocs));
    return { target, order: target.order ?? i, limit };
  });
}

/**
 * Plans and evaluates the query in one segment; null when the segment is ruled out unread. With
 * `countOnly`, a count known from the plan (a points-index slice, every doc) is taken without
 * building the doc set: `docs` is then null.
 */
function matchIn(
  bound: Bound,
  query: Query,
  interval: TsInterval,
  nowMs: number,
  deadline: Deadline,
  countOnly: boolean,
): { node: PlanNode; docs: Uint32Array | null; count: number; ctx: EvalContext } | null {
  const { target, limit } = bound;
  if (limit === 0 || !segmentCanMatch(target.segment, interval)) return null;
  const node = planQuery({ segment: target.segment, limit, index: target.index, nowMs, deadline }, query);
  const ctx = new EvalContext(limit, deadline);
  if (countOnly && (target.deleted === undefined || target.deleted.length === 0)) {
    const known = knownMatchCount(node, ctx, target.segment.numDocs);
    if (known !== null) return { node, docs: null, count: known, ctx };
  }
  const docs = withoutDeleted(evaluate(node, null, ctx), target.deleted);
  return { node, docs, count: docs.length, ctx };
}

function validateRequest(request: SearchRequest, keys: readonly EffectiveSortKey[]): void {
  if (!Number.isInteger(request.from) || request.from < 0) {
    throw new BadRequestError(`[from] parameter cannot be negative, found [${request.from}]`);
  }
  if (!Number.isInteger(request.size) || request.size < 0) {
    throw new BadRequestError(`[size] parameter cannot be negative, found [${request.size}]`);
  }
  if (request.searchAfter !== undefined) {
    if (request.searchAfter.length !== keys.length) {
      throw new BadRequestError(
        `search_after has ${request.searchAfter.length} value(s) but sort has ${keys.length}`,
      );
    }
    if (request.from > 0) {
      throw new BadRequestError('[from] parameter must be set to 0 when [search_after] is used');
    }
  }
}

function compareCandidates(a: Candidate, b: Candidate, keys: readonly EffectiveSortKey[]): number {
  for (let k = 0; k < keys.length; k++) {
    const c = compareSortValues(a.values[k]!, b.values[k]!, keys[k]!);
    if (c !== 0) return c;
  }
  const pa = a.bound.order * SEGMENT_STRIDE + a.doc;
  const pb = b.bound.order * SEGMENT_STRIDE + b.doc;
  if (pa === pb) return 0;
  const c = pa < pb ? -1 : 1;
  return keys[0]?.order === 'desc' ? -c : c;
}

/** Top-k of one segment's matches: by column blocks when the sort allows and it saves work. */
function topKOf(sort: SegmentSort, docs: Uint32Array, k: number, after: Float64Array | null, bound: Bound, deadline: Deadline): Int32Array {
  const field = sort.primaryColumn();
  // with few more matches than kept hits, visiting them all is as cheap as ordering blocks
  if (field !== null && docs.length > k * 8 && docs.length > BLOCK_DOCS) {
    const blocks = columnBlocks(bound.target.segment, field, bound.limit);
    if (blocks !== null) return topKByBlocks(sort, docs, k, after, blocks, deadline);
  }
  return topK(sort, docs.length, k, after, deadline);
}

/**
 * With `_ts` as the first sort key, the segments newest first (oldest first for an ascending
 * sort) by their time bounds, so that the page fills from the segments that hold it and the rest
 * can be passed by; null for any other sort. Ties keep going by `order`, whatever the visit.
 */
function timeOrderedVisit(bounds: readonly Bound[], keys: readonly EffectiveSortKey[]): Bound[] | null {
  const first = keys[0];
  if (first === undefined || first.field !== '_ts') return null;
  const desc = first.order === 'desc';
  return [...bounds].sort((a, b) => (desc ? b.target.segment.maxTs - a.target.segment.maxTs : a.target.segment.minTs - b.target.segment.minTs));
}

/** Whether a doc of the segment may sort at or before the k-th best `_ts` found so far. */
function mayHoldBetterTs(segment: SearchTarget['segment'], threshold: SortValue | null, desc: boolean): boolean {
  if (typeof threshold !== 'number') return true;
  return desc ? segment.maxTs >= threshold : segment.minTs <= threshold;
}

/** True once the matches counted exceed the total the request tracks (`track_total_hits` as a number). */
function countSettled(count: number, track: boolean | number): boolean {
  return typeof track === 'number' && count > track;
}

function totalOf(count: number, track: boolean | number): { total: number; totalRelation: 'eq' | 'gte' } {
  if (typeof track === 'number' && count > track) return { total: Math.max(0, track), totalRelation: 'gte' };
  return { total: count, totalRelation: 'eq' };
}

/** Runs a search over the targets (segments in a stable order: ties go by that order). */
export function executeSearch(targets: readonly SearchTarget[], request: SearchRequest): SearchResult {
  const keys = effectiveSort(request.sort);
  validateRequest(request, keys);
  const nowMs = request.nowMs ?? Date.now();
  const deadline = new Deadline(request.deadlineMs);
  const scoring = keys.some((k) => k.field === '_score');
  const interval = requiredTsInterval(request.query, nowMs);
  const k = request.from + request.size;
  const bounds = snapshot(targets);
  // nothing but the total is wanted: a count the plan knows needs no doc set
  const countOnly = k === 0 && !scoring && request.terminateAfter === undefined;

  let count = 0;
  let terminatedEarly = false;
  let maxScore = -Infinity;
  let skipped = 0;
  const candidates: Candidate[] = [];

  const byTs = scoring ? null : timeOrderedVisit(bounds, keys);
  // the first sort value of the k-th best candidate so far; null until k candidates are known
  let threshold: SortValue | null = null;
  let thresholdStale = false;
  for (const bound of byTs ?? bounds) {
    deadline.check();
    if (k === 0 && countSettled(count, request.trackTotalHits)) {
      // no hits wanted and the total is already past what is tracked
      skipped++;
      continue;
    }
    if (byTs !== null && k > 0 && candidates.length >= k) {
      if (thresholdStale) {
        candidates.sort((a, b) => compareCandidates(a, b, keys));
        candidates.length = k;
        threshold = candidates[k - 1]!.values[0]!;
        thresholdStale = false;
      }
      if (!mayHoldBetterTs(bound.target.segment, threshold, keys[0]!.order === 'desc') && countSettled(count, request.trackTotalHits)) {
        // no hit of this segment can enter the page and the total is already past what is tracked
        skipped++;
        continue;
      }
    }
    const matched = matchIn(bound, request.query, interval, nowMs, deadline, countOnly);
    if (matched === null) {
      skipped++;
      continue;
    }
    if (matched.docs === null) {
      count += matched.count;
      continue;
    }
    let docs = matched.docs;
    if (request.terminateAfter !== undefined && request.terminateAfter > 0 && docs.length > request.terminateAfter) {
      docs = docs.subarray(0, request.terminateAfter);
      terminatedEarly = true;
    }
    count += docs.length;
    if (docs.length === 0) continue;
    const scores = scoring ? scoreDocs(matched.node, docs, matched.ctx) : null;
    if (scores !== null) for (let i = 0; i < scores.length; i++) if (scores[i]! > maxScore) maxScore = scores[i]!;
    if (k === 0) continue;

    const sort = new SegmentSort(keys, bound.target.segment, bound.order, docs, scores);
    const after = request.searchAfter === undefined ? null : sort.afterValues(request.searchAfter);
    const direction = scoring ? null : docOrderDirection(keys, bound.target.segment, bound.limit);
    const best =
      direction !== null
        ? topKInDocOrder(sort, docs.length, k, after, direction === 'asc')
        : topKOf(sort, docs, k, after, bound, deadline);
    for (let j = 0; j < best.length; j++) {
      const i = best[j]!;
      candidates.push({ bound, doc: docs[i]!, score: scores === null ? 0 : scores[i]!, values: sort.sortValues(i) });
    }
    thresholdStale = best.length > 0;
  }

  deadline.check();
  candidates.sort((a, b) => compareCandidates(a, b, keys));
  const page = candidates.slice(request.from, k);
  const hits: SearchHit[] = page.map((c) => {
    const { id, source } = storedDocument(c.bound.target.segment, c.doc);
    return {
      index: c.bound.target.index,
      id,
      source,
      score: scoring ? c.score : null,
      sortValues: c.values,
      position: c.bound.order * SEGMENT_STRIDE + c.doc,
    };
  });

  return {
    ...totalOf(count, request.trackTotalHits),
    maxScore: scoring && count > 0 ? maxScore : null,
    hits,
    terminatedEarly,
    stats: { segmentsSearched: bounds.length - skipped, segmentsSkipped: skipped },
  };
}

/**
 * The sorted ids of the docs matching `query` in one segment (below its docLimit), for callers
 * that work on match sets (aggregations). Empty when the segment's time range rules it out.
 */
export function matchSegment(target: SearchTarget, query: Query, opts: MatchOptions = {}): Uint32Array {
  const nowMs = opts.nowMs ?? Date.now();
  const deadline = new Deadline(opts.deadlineMs);
  const [bound] = snapshot([target]);
  const matched = matchIn(bound!, query, requiredTsInterval(query, nowMs), nowMs, deadline, false);
  if (matched === null || matched.docs === null) return new Uint32Array(0);
  const docs = matched.docs;
  const cap = opts.terminateAfter;
  return cap !== undefined && cap > 0 && docs.length > cap ? docs.subarray(0, cap) : docs;
}
