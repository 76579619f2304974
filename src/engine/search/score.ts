/**
 * Scores for a `_score` sort: a cheap count of the scoring clauses a doc matches (no term
 * statistics). A leaf scores its boost (default 1); a text `match` scores one per matching query
 * token; a bool sums its must and matching should clauses (filter and must_not score nothing,
 * so a filter-only bool scores 0); constant_score and match_all score their boost.
 */
import { evaluate, type EvalContext } from './evaluate.js';
import type { PlanNode } from './plan-node.js';

/** Adds `weight` to out[i] for every docs[i] that is also in `list`. */
function addWhereIn(docs: Uint32Array, list: Uint32Array, weight: number, out: Float64Array): void {
  let j = 0;
  const n = list.length;
  for (let i = 0; i < docs.length && j < n; i++) {
    const d = docs[i]!;
    while (j < n && list[j]! < d) j++;
    if (list[j] === d) out[i]! += weight;
  }
}

/** Adds the scores of `node` for `docs` (all of which match it) into `out`, aligned with docs. */
export function addScores(node: PlanNode, docs: Uint32Array, out: Float64Array, ctx: EvalContext): void {
  switch (node.op) {
    case 'none':
      return;
    case 'tokens':
      for (let l = 0; l < node.lists.length; l++) addWhereIn(docs, node.lists[l]!, node.weights[l]! * node.boost, out);
      return;
    case 'bool': {
      const own = node.boost === 1 ? out : new Float64Array(docs.length);
      for (const m of node.must) addScores(m, docs, own, ctx);
      for (const s of node.should) {
        const hit = evaluate(s, docs, ctx);
        if (hit.length === 0) continue;
        const sub = new Float64Array(hit.length);
        addScores(s, hit, sub, ctx);
        let j = 0;
        for (let i = 0; i < docs.length && j < hit.length; i++) {
          if (docs[i] === hit[j]) own[i]! += sub[j++]!;
        }
      }
      if (own !== out) for (let i = 0; i < docs.length; i++) out[i]! += own[i]! * node.boost;
      return;
    }
    default:
      for (let i = 0; i < docs.length; i++) out[i]! += node.boost;
  }
}

export function scoreDocs(node: PlanNode, docs: Uint32Array, ctx: EvalContext): Float64Array {
  const out = new Float64Array(docs.length);
  addScores(node, docs, out, ctx);
  return out;
}
