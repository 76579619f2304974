/**
 * Evaluates a plan to its sorted doc-id set. Every node can run restricted to a candidate set
 * (`within`): conjunctions pass the running intersection down, so column and phrase checks only
 * look at docs that survived the cheaper clauses before them.
 */
import { type Deadline, TICK_MASK } from './deadline.js';
import {
  EMPTY_DOCS,
  allDocs,
  atLeast,
  complement,
  difference,
  intersect,
  intersectMany,
  unionMany,
} from './doc-set.js';
import { matchPhrase } from './phrase.js';
import { sortedBelow } from './sorted-below.js';
import type { BoolNode, ColumnInNode, ColumnRangeNode, IdsNode, PlanNode, TokensNode, UnionNode } from './plan-node.js';

export class EvalContext {
  private all: Uint32Array | null = null;

  constructor(
    /** docs at or above this id are invisible */
    readonly limit: number,
    readonly deadline: Deadline,
  ) {}

  allDocs(): Uint32Array {
    if (this.all === null) this.all = allDocs(this.limit);
    return this.all;
  }
}

/**
 * How many docs a node matches, when that is known without building their set: a term's list,
 * every doc, a points-index slice of a whole segment (its docs are in value order, so a set would
 * need a sort). Null when only evaluating tells.
 */
export function knownMatchCount(node: PlanNode, ctx: EvalContext, segmentDocs: number): number | null {
  switch (node.op) {
    case 'none':
      return 0;
    case 'all':
      return ctx.limit;
    case 'union':
      return node.lists.length === 1 ? node.lists[0]!.length : null;
    case 'column_range':
      // a slice of the whole segment may hold docs past a smaller visibility limit
      return node.points !== null && ctx.limit === segmentDocs ? node.points.length : null;
    case 'const':
      return knownMatchCount(node.child, ctx, segmentDocs);
    default:
      return null;
  }
}

/** Rough number of docs a node touches when evaluated alone: conjunctions start with the cheapest. */
export function estimateCost(node: PlanNode, limit: number): number {
  switch (node.op) {
    case 'none':
      return 0;
    case 'all':
      return limit * 2;
    case 'union':
    case 'tokens': {
      let sum = 0;
      let min = Infinity;
      for (const l of node.lists) {
        sum += l.length;
        if (l.length < min) min = l.length;
      }
      return node.op === 'tokens' && node.min >= totalWeight(node) ? min : sum;
    }
    case 'column_range':
      return node.points === null ? limit : node.points.length;
    case 'column_in':
    case 'ids':
      return limit;
    case 'phrase': {
      let min = Infinity;
      for (const alts of node.slots) {
        let n = 0;
        for (const a of alts) n += a.docs.length;
        if (n < min) min = n;
      }
      return min * 2;
    }
    case 'bool': {
      const required = [...node.must, ...node.filter];
      if (required.length > 0) return Math.min(...required.map((n) => estimateCost(n, limit)));
      if (node.minimumShouldMatch > 0) {
        let sum = 0;
        for (const s of node.should) sum += estimateCost(s, limit);
        return sum;
      }
      return limit;
    }
    case 'const':
      return estimateCost(node.child, limit);
  }
}

function totalWeight(node: TokensNode): number {
  let t = 0;
  for (const w of node.weights) t += w;
  return t;
}

/** The docs matching `node`, restricted to `within` when it is not null. */
export function evaluate(node: PlanNode, within: Uint32Array | null, ctx: EvalContext): Uint32Array {
  switch (node.op) {
    case 'none':
      return EMPTY_DOCS;
    case 'all':
      return within ?? ctx.allDocs();
    case 'union':
      return evalUnion(node, within, ctx);
    case 'tokens':
      return evalTokens(node, within, ctx);
    case 'column_range':
      return evalColumnRange(node, within, ctx);
    case 'column_in':
      return evalColumnIn(node, within, ctx);
    case 'ids':
      return evalIds(node, within, ctx);
    case 'phrase':
      return matchPhrase(node, within, ctx.limit, ctx.deadline);
    case 'bool':
      return evalBool(node, within, ctx);
    case 'const':
      return evaluate(node.child, within, ctx);
  }
}

function restrictEach(lists: readonly Uint32Array[], within: Uint32Array): Uint32Array[] {
  return lists.map((l) => intersect(within, l));
}

function evalUnion(node: UnionNode, within: Uint32Array | null, ctx: EvalContext): Uint32Array {
  const lists = node.lists;
  if (within === null) return unionMany(lists, ctx.limit, ctx.deadline);
  if (lists.length === 1) return intersect(within, lists[0]!);
  let total = 0;
  for (const l of lists) total += l.length;
  // few candidates against many postings: probe each list instead of building the union
  if (within.length * lists.length * 4 < total) return unionMany(restrictEach(lists, within), ctx.limit, ctx.deadline);
  return intersect(within, unionMany(lists, ctx.limit, ctx.deadline));
}

function evalTokens(node: TokensNode, within: Uint32Array | null, ctx: EvalContext): Uint32Array {
  const total = totalWeight(node);
  if (node.min >= total) return intersectMany(within === null ? node.lists : [within, ...node.lists]);
  const lists = within === null ? node.lists : restrictEach(node.lists, within);
  if (node.min <= 1) return unionMany(lists, ctx.limit, ctx.deadline);
  return atLeast(lists, node.weights, node.min, ctx.limit, ctx.deadline);
}

function evalColumnRange(node: ColumnRangeNode, within: Uint32Array | null, ctx: EvalContext): Uint32Array {
  const points = node.points;
  // a few candidates are checked on the column; otherwise the index has the docs already
  if (points !== null && (within === null || within.length * 8 > points.length)) {
    const docs = sortedBelow(points, ctx.limit);
    return within === null ? docs : intersect(within, docs);
  }
  const { column, lo, hi, loInclusive, hiInclusive } = node;
  const deadline = ctx.deadline;
  const n = within === null ? ctx.limit : within.length;
  const out = new Uint32Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    if ((i & TICK_MASK) === TICK_MASK) deadline.check();
    const d = within === null ? i : within[i]!;
    const v = column[d]!;
    if ((loInclusive ? v >= lo : v > lo) && (hiInclusive ? v <= hi : v < hi)) out[k++] = d;
  }
  return out.subarray(0, k);
}

function evalColumnIn(node: ColumnInNode, within: Uint32Array | null, ctx: EvalContext): Uint32Array {
  const { column, values } = node;
  const set = new Set<number>(values);
  const n = within === null ? ctx.limit : within.length;
  const out = new Uint32Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    if ((i & TICK_MASK) === TICK_MASK) ctx.deadline.check();
    const d = within === null ? i : within[i]!;
    if (set.has(column[d]!)) out[k++] = d;
  }
  return out.subarray(0, k);
}

function evalIds(node: IdsNode, within: Uint32Array | null, ctx: EvalContext): Uint32Array {
  const { words, wantedLo, wantedHi } = node;
  const loAt = node.littleEndian ? 0 : 1;
  const hiAt = 1 - loAt;
  const lows = new Set<number>(wantedLo);
  const n = within === null ? ctx.limit : within.length;
  // a client-supplied `_id` may be held by replaced (deleted) docs too: every match counts
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    if ((i & TICK_MASK) === TICK_MASK) ctx.deadline.check();
    const d = within === null ? i : within[i]!;
    const lo = words[2 * d + loAt]!;
    if (!lows.has(lo)) continue;
    const hi = words[2 * d + hiAt]!;
    for (let w = 0; w < wantedLo.length; w++) {
      if (wantedLo[w] === lo && wantedHi[w] === hi) {
        out.push(d);
        break;
      }
    }
  }
  return Uint32Array.from(out);
}

function evalBool(node: BoolNode, within: Uint32Array | null, ctx: EvalContext): Uint32Array {
  const limit = ctx.limit;
  let cur = within;
  const required = [...node.must, ...node.filter]
    .map((n) => ({ n, cost: estimateCost(n, limit) }))
    .sort((a, b) => a.cost - b.cost);
  for (const { n } of required) {
    ctx.deadline.check();
    cur = evaluate(n, cur, ctx);
    if (cur.length === 0) return EMPTY_DOCS;
  }
  const msm = node.minimumShouldMatch;
  if (msm > 0) {
    const parts = node.should.map((s) => evaluate(s, cur, ctx));
    cur =
      msm === 1
        ? unionMany(parts, limit, ctx.deadline)
        : atLeast(
            parts,
            parts.map(() => 1),
            msm,
            limit,
            ctx.deadline,
          );
    if (cur.length === 0) return EMPTY_DOCS;
  }
  for (const n of node.mustNot) {
    ctx.deadline.check();
    if (cur === null) cur = complement(evaluate(n, null, ctx), limit);
    else cur = difference(cur, evaluate(n, cur, ctx));
    if (cur.length === 0) return EMPTY_DOCS;
  }
  return cur ?? ctx.allDocs();
}
