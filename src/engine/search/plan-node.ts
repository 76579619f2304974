/**
 * A query bound to one segment: field types resolved, values parsed, term dictionaries expanded,
 * posting lists clipped to the visible docs. Evaluation turns it into a sorted doc-id set.
 */
import type { PositionPostings } from '../segment-reader.js';

export type PlanNode =
  | AllNode
  | NoneNode
  | UnionNode
  | TokensNode
  | ColumnRangeNode
  | ColumnInNode
  | IdsNode
  | PhraseNode
  | BoolNode
  | ConstNode;

export interface AllNode {
  op: 'all';
  boost: number;
}

export interface NoneNode {
  op: 'none';
}

/** Docs in any of the lists (a term, several terms, a term expansion, exists). */
export interface UnionNode {
  op: 'union';
  lists: Uint32Array[];
  boost: number;
}

/**
 * Analyzed tokens of a match: a doc matches when the weights (occurrences in the query) of the
 * tokens it holds add up to `min`. Scores count the matching tokens.
 */
export interface TokensNode {
  op: 'tokens';
  lists: Uint32Array[];
  weights: number[];
  min: number;
  boost: number;
}

/**
 * Docs whose column value lies within the bounds (NaN, i.e. no value, never does). With a points
 * index, `points` is the slice of it inside the bounds (docs by value, not sorted by id; some may
 * be past the visible limit): evaluation takes them from there unless a few candidates are
 * cheaper to check against the column.
 */
export interface ColumnRangeNode {
  op: 'column_range';
  column: Float64Array;
  lo: number;
  loInclusive: boolean;
  hi: number;
  hiInclusive: boolean;
  points: Uint32Array | null;
  boost: number;
}

/** Docs whose column value is one of `values` (sorted ascending). */
export interface ColumnInNode {
  op: 'column_in';
  column: Float64Array;
  values: Float64Array;
  boost: number;
}

/** Docs whose `_id` is one of the wanted ids, given as low and high 32-bit halves. */
export interface IdsNode {
  op: 'ids';
  /** the segment's `_id` column viewed as 32-bit words */
  words: Uint32Array;
  wantedLo: Uint32Array;
  wantedHi: Uint32Array;
  /** word order of `words`: low half first on little-endian platforms */
  littleEndian: boolean;
  boost: number;
}

/**
 * Tokens at consecutive positions, `slop` moves allowed. Each slot lists the alternative terms
 * accepted at that position (one, except for the expanded last slot of a phrase prefix).
 */
export interface PhraseNode {
  op: 'phrase';
  slots: PositionPostings[][];
  /** slots with equal keys hold the same term: a sloppy match must use distinct positions */
  slotKeys: string[];
  slop: number;
  boost: number;
}

export interface BoolNode {
  op: 'bool';
  must: PlanNode[];
  filter: PlanNode[];
  should: PlanNode[];
  mustNot: PlanNode[];
  minimumShouldMatch: number;
  boost: number;
}

export interface ConstNode {
  op: 'const';
  child: PlanNode;
  boost: number;
}

export const NONE: NoneNode = { op: 'none' };
