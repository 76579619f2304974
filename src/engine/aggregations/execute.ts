/**
 * Runs aggregations over the segments of a search: per segment the query's matches are
 * collected (or the cached partial reused), segments of one index are merged and cut to
 * shard_size like an Elasticsearch shard, indexes are merged, and the result is finalized. One
 * AggregationService per node holds the memory breaker and the cache.
 */
import { BadRequestError, QueryTimeoutError } from '../../common/errors.js';
import type { Query } from '../../query/index.js';
import { matchSegment } from '../search/index.js';
import type { SearchTarget } from '../search/types.js';
import { AggregationCache } from './cache.js';
import { BATCH, type SegmentContext } from './collector.js';
import { createCollector, roundingOf } from './collectors/index.js';
import { finalize } from './finalize.js';
import { AggregationBreaker, AggregationMemory, MemoryScope } from './memory.js';
import { mergePartials } from './merge.js';
import { validateOrders } from './order.js';
import { treeBytes, type Partial } from './partial.js';
import type { AggResult } from './result.js';
import { shardReduce } from './shard-reduce.js';
import { partialFromWire, partialToWire, type PartialWire } from './wire.js';
import { Yielder } from '../segment/yielder.js';
import { isBucketSpec, type AggSpec } from './spec.js';

export interface AggregationRequest {
  query: Query;
  aggs: AggSpec[];
  /** `now` for date math, epoch ms; defaults to Date.now() */
  nowMs?: number;
  /** absolute time after which the work stops with QueryTimeoutError */
  deadlineMs?: number;
}

export interface AggregationServiceOptions {
  /** the node's budget for aggregation memory, cache included (SVC_AGGREGATION_MEMORY_BYTES) */
  memoryBytes: number;
  /** most buckets one response may hold (SVC_MAX_BUCKETS) */
  maxBuckets: number;
  /** bytes the result cache may hold; default an eighth of memoryBytes, at most 64 MiB */
  cacheBytes?: number;
  /** told the cache's size after every change (metrics) */
  onCacheChange?: (bytes: number, entries: number) => void;
}

export class AggregationService {
  readonly breaker: AggregationBreaker;
  readonly cache: AggregationCache;
  readonly maxBuckets: number;

  constructor(opts: AggregationServiceOptions) {
    this.breaker = new AggregationBreaker(opts.memoryBytes);
    this.maxBuckets = opts.maxBuckets;
    const cacheBytes = opts.cacheBytes ?? Math.min(64 << 20, Math.floor(opts.memoryBytes / 8));
    this.cache = new AggregationCache(cacheBytes, this.breaker, opts.onCacheChange);
  }

  /** Results in the order of `request.aggs`; targets in a stable order (ties of top_hits go by it). */
  run(targets: readonly SearchTarget[], request: AggregationRequest): AggResult[] {
    const steps = this.steps(targets, request);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * The same as `run`, giving the event loop a turn whenever a stretch of work passed the
   * yielder's slice: aggregations run on the thread that answers liveness and takes writes, so a
   * heavy one must not hold it for seconds.
   */
  async runInSlices(targets: readonly SearchTarget[], request: AggregationRequest, yielder = new Yielder()): Promise<AggResult[]> {
    const steps = this.steps(targets, request);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (yielder.dueNow()) await yielder.pause();
    }
  }

  private *steps(targets: readonly SearchTarget[], request: AggregationRequest): Steps<AggResult[]> {
    validateAggregations(request.aggs);
    const memory = new AggregationMemory(this.breaker, this.maxBuckets);
    try {
      const { global, indexCount } = yield* gather(targets, request, memory, this.cache);
      return finalizeAll(request, global, memory, indexCount);
    } finally {
      memory.close();
    }
  }

  /**
   * What these targets know of the aggregations, as JSON for the node that merges the parts of
   * a search spread over nodes (reduceParts); null when no segment matched. `indexCount` counts
   * the indexes of the whole search, which each index's cut to shard_size depends on.
   */
  async partialsInSlices(targets: readonly SearchTarget[], request: AggregationRequest, indexCount: number, yielder = new Yielder()): Promise<PartialWire[] | null> {
    validateAggregations(request.aggs);
    const memory = new AggregationMemory(this.breaker, this.maxBuckets);
    try {
      const steps = gather(targets, request, memory, this.cache, indexCount);
      for (;;) {
        const step = steps.next();
        if (step.done) return step.value.global === undefined ? null : step.value.global.map(partialToWire);
        if (yielder.dueNow()) await yielder.pause();
      }
    } finally {
      memory.close();
    }
  }

  /** The results of a search spread over nodes from each node's partialsInSlices, as run() over all their targets. */
  reduceParts(request: AggregationRequest, parts: ReadonlyArray<PartialWire[] | null>, indexCount: number): AggResult[] {
    validateAggregations(request.aggs);
    const memory = new AggregationMemory(this.breaker, this.maxBuckets);
    try {
      let global: Partial[] | undefined;
      for (const part of parts) {
        if (part === null) continue;
        const partials = part.map((w) => partialFromWire(w, memory));
        global = global === undefined ? partials : request.aggs.map((s, j) => mergePartials(s, global![j]!, partials[j]!, memory));
      }
      return finalizeAll(request, global, memory, indexCount);
    } finally {
      memory.close();
    }
  }
}

function finalizeAll(request: AggregationRequest, global: Partial[] | undefined, memory: AggregationMemory, indexCount: number): AggResult[] {
  return request.aggs.map((spec, j) => finalize(spec, global?.[j], { memory, indexCount }));
}

/** Work split at the points where it may pause: each `yield` is a place to give the event loop a turn. */
type Steps<T> = Generator<void, T, void>;

/** Checks what can be checked before reading any segment: order paths and time zones. */
export function validateAggregations(specs: readonly AggSpec[]): void {
  for (const spec of specs) {
    if (!isBucketSpec(spec)) continue;
    if (spec.type === 'terms' || spec.type === 'histogram' || spec.type === 'date_histogram') validateOrders(spec.order, spec.aggs, spec.name);
    if (spec.type === 'date_histogram') roundingOf(spec);
    if (spec.type === 'histogram' && !(spec.interval > 0)) throw new BadRequestError(`[interval] must be >0 for histogram aggregation [${spec.name}]`);
    validateAggregations(spec.aggs);
  }
}

interface Level {
  level: number;
  partials: Partial[];
}

/** Per index: segments merged and cut to shard_size; then indexes merged. */
function* gather(
  targets: readonly SearchTarget[],
  request: AggregationRequest,
  memory: AggregationMemory,
  cache: AggregationCache | null,
  indexCountOfSearch?: number,
): Steps<{ global: Partial[] | undefined; indexCount: number }> {
  const nowMs = request.nowMs ?? Date.now();
  const checkDeadline = () => {
    if (request.deadlineMs !== undefined && Date.now() > request.deadlineMs) throw new QueryTimeoutError('search exceeded its time limit');
  };
  const specs = request.aggs;
  const byIndex = new Map<string, Array<{ target: SearchTarget; order: number }>>();
  targets.forEach((target, place) => {
    let list = byIndex.get(target.index);
    if (!list) byIndex.set(target.index, (list = []));
    // a target's place in a search spread over nodes is set on it (top_hits ties go by it)
    list.push({ target, order: target.order ?? place });
  });
  const indexCount = indexCountOfSearch ?? byIndex.size;
  const wantsEmpty = specs.some(needsSegmentsWithoutMatches);
  const baseKey = cache === null ? null : requestKey(request, nowMs);

  const mergeAll = (a: Partial[], b: Partial[]) => specs.map((s, j) => mergePartials(s, a[j]!, b[j]!, memory));

  let global: Partial[] | undefined;
  for (const list of byIndex.values()) {
    // merge like a binary counter: equal-sized runs merge, so each partial is merged O(log n) times
    const stack: Level[] = [];
    for (const { target, order } of list) {
      checkDeadline();
      const partials = yield* segmentPartials(target, order, request, nowMs, memory, cache, baseKey, wantsEmpty, checkDeadline);
      if (partials === null) continue;
      let top: Level = { level: 0, partials };
      while (stack.length > 0 && stack[stack.length - 1]!.level === top.level) {
        const below = stack.pop()!;
        top = { level: top.level + 1, partials: mergeAll(below.partials, top.partials) };
      }
      stack.push(top);
    }
    if (stack.length === 0) continue;
    let index = stack.pop()!.partials;
    while (stack.length > 0) index = mergeAll(stack.pop()!.partials, index);
    const reduced = specs.map((s, j) => shardReduce(s, index[j]!, memory, indexCount));
    global = global === undefined ? reduced : mergeAll(global, reduced);
  }
  checkDeadline();
  return { global, indexCount };
}

function* segmentPartials(
  target: SearchTarget,
  order: number,
  request: AggregationRequest,
  nowMs: number,
  memory: AggregationMemory,
  cache: AggregationCache | null,
  baseKey: string | null,
  wantsEmpty: boolean,
  checkDeadline: () => void,
): Steps<Partial[] | null> {
  const segment = target.segment;
  const limit = Math.max(0, Math.min(target.docLimit ?? segment.numDocs, segment.numDocs));
  // a segment file only gains deletes until a merge replaces it: their count names its state
  const key = baseKey !== null && isImmutable(target) ? `${segment.id}|${limit}|${target.deleted?.length ?? 0}|${baseKey}` : null;
  if (key !== null) {
    const hit = cache!.get(key);
    if (hit !== undefined) {
      // the request holds them like anything it built: merges release them as they go
      for (const p of hit) memory.charge(treeBytes(p), 'cached partial');
      return hit;
    }
  }
  const opts = { nowMs, ...(request.deadlineMs === undefined ? {} : { deadlineMs: request.deadlineMs }) };
  const docs = matchSegment(target, request.query, opts);
  yield;
  if (docs.length === 0 && !wantsEmpty) return null;
  const scope = new MemoryScope(memory);
  try {
    scope.charge(docs.byteLength, 'matching docs');
    const ctx: SegmentContext = {
      segment,
      index: target.index,
      limit,
      segmentOrder: order,
      nowMs,
      scope,
      memory,
      match: (query) => {
        const matched = matchSegment(target, query, opts);
        scope.charge(matched.byteLength, 'filter docs');
        return matched;
      },
      checkDeadline,
      create: (spec, singleParent) => createCollector(spec, ctx, singleParent),
    };
    const collectors = request.aggs.map((spec) => createCollector(spec, ctx, true));
    for (let i = 0; i < docs.length; i += BATCH) {
      checkDeadline();
      const n = Math.min(BATCH, docs.length - i);
      const batch = docs.subarray(i, i + n);
      for (const c of collectors) c.collect(batch, null, n);
      yield;
    }
    const partials = collectors.map((c) => c.result(0));
    if (key !== null) cache!.put(key, partials);
    return partials;
  } finally {
    scope.close();
  }
}

function isImmutable(target: SearchTarget): boolean {
  const segment = target.segment;
  return segment.live !== true && (target.docLimit === undefined || target.docLimit >= segment.numDocs);
}

/** Terms with min_doc_count 0 list terms of segments where nothing matched. */
function needsSegmentsWithoutMatches(spec: AggSpec): boolean {
  if (!isBucketSpec(spec)) return false;
  if (spec.type === 'terms' && spec.minDocCount === 0) return true;
  return spec.aggs.some(needsSegmentsWithoutMatches);
}

function hasTopHits(spec: AggSpec): boolean {
  return spec.type === 'top_hits' || (isBucketSpec(spec) && spec.aggs.some(hasTopHits));
}

/** Options that only shape the final result, not a segment's partial: left out of the cache key. */
const FINAL_ONLY = new Set(['extendedBounds', 'size', 'shardSize', 'order', 'showTermDocCountError', 'percents', 'shardMinDocCount']);

/**
 * The canonical text of the query and aggregations for cache keys, or null when the result must
 * not be cached (top_hits hold references to segments). `now` enters the key only when the query
 * uses date math.
 */
function requestKey(request: AggregationRequest, nowMs: number): string | null {
  if (request.aggs.some(hasTopHits)) return null;
  const query = JSON.stringify(request.query, canonical);
  const aggs = JSON.stringify(request.aggs, (k, v: unknown) => (FINAL_ONLY.has(k) ? undefined : canonical(k, v)));
  const now = /"now/.test(query) ? `|${nowMs}` : '';
  return `${query}|${aggs}${now}`;
}

function canonical(_key: string, value: unknown): unknown {
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`;
  if (value instanceof Set) return [...(value as Set<unknown>)].map(String).sort();
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return value;
}
