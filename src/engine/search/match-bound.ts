/**
 * An upper bound on the docs a query can match over some segments, read from term dictionaries
 * alone (document frequencies, no postings): term, match and phrase queries on text and keyword
 * fields and bools of them. Anything else has no cheap bound (Infinity). The query pool uses it
 * to answer tiny searches where they arrive instead of paying two thread hand-offs.
 *
 * `postingsWork` counts instead the doc ids an evaluation reads: the sum of the frequencies of
 * every term, whatever the operator (an intersection walks or probes each list), twice for
 * the terms of a phrase (their positions).
 */
import type { Query, RangeQuery } from '../../query/index.js';
import { analyzerFor } from '../analysis/index.js';
import type { SegmentReader } from '../segment-reader.js';
import { resolveFieldName } from './field-names.js';
import { valueBound } from '../segment/points-index.js';
import { toNumber } from './value-parse.js';

/** A doc of a phrase's list costs about this many doc ids of a conjunction: its positions are read too. */
const PHRASE_WORK_PER_DOC = 2;

/** Fields every doc has without a mapping: no dictionary or points index bounds them. */
const BUILT_IN_FIELDS: ReadonlySet<string> = new Set(['_ts', '_lid', '_id', '_index']);

function termBound(
  segments: readonly SegmentReader[],
  field: string,
  terms: (name: string, type: 'text' | 'keyword') => string[],
  all: boolean,
  work: boolean,
): number {
  if (field.includes('*')) return Infinity;
  let total = 0;
  for (const segment of segments) {
    const name = resolveFieldName(segment, field);
    const type = segment.fieldType(name);
    if (type === undefined) {
      if (BUILT_IN_FIELDS.has(name)) return Infinity;
      continue;
    }
    if (type !== 'text' && type !== 'keyword') return Infinity;
    const list = terms(name, type);
    // every token required: the rarest bounds the matches; any token: their sum does
    const least = all && !work;
    let bound = least && list.length > 0 ? Infinity : 0;
    for (const t of list) {
      const df = segment.docFreq(name, t);
      bound = least ? Math.min(bound, df) : bound + df;
    }
    total += bound;
  }
  return total;
}

/**
 * Values of a numeric field inside a range, counted in the points index of each segment (built
 * on its first range query and kept): a doc holding several values counts more than once, which
 * keeps it an upper bound.
 */
function rangeBound(segments: readonly SegmentReader[], q: RangeQuery): number {
  const lower = q.gt ?? q.gte;
  const upper = q.lt ?? q.lte;
  const lo = lower === undefined ? -Infinity : toNumber(lower);
  const hi = upper === undefined ? Infinity : toNumber(upper);
  if (lo === undefined || hi === undefined || q.field.includes('*')) return Infinity;
  let total = 0;
  for (const segment of segments) {
    const name = resolveFieldName(segment, q.field);
    const type = segment.fieldType(name);
    if (type === undefined) {
      if (BUILT_IN_FIELDS.has(name)) return Infinity;
      continue;
    }
    if ((type !== 'long' && type !== 'double') || segment.pointsIndex === undefined) return Infinity;
    const index = segment.pointsIndex(name);
    if (index === null) continue;
    const from = valueBound(index.values, lo, q.gt !== undefined);
    total += Math.max(0, valueBound(index.values, hi, q.lt === undefined) - from);
  }
  return total;
}

export function matchUpperBound(segments: readonly SegmentReader[], query: Query): number {
  return bound(segments, query, false);
}

/**
 * The doc ids evaluating `query` reads from postings and points indexes, by document
 * frequencies (a phrase's docs count twice, for their positions); Infinity for negations and
 * what has no cheap bound.
 */
export function postingsWork(segments: readonly SegmentReader[], query: Query): number {
  return bound(segments, query, true);
}

function bound(segments: readonly SegmentReader[], query: Query, work: boolean): number {
  switch (query.kind) {
    case 'match_none':
      return 0;
    case 'term':
      if (query.caseInsensitive === true || typeof query.value !== 'string') return Infinity;
      return termBound(segments, query.field, () => [String(query.value)], false, work);
    case 'match': {
      // a prefix or a text without tokens has no cheap bound
      if (query.prefixMaxExpansions !== undefined || query.zeroTermsQuery !== undefined) return Infinity;
      // a match needing only some tokens is bounded by the sum, whatever the minimum
      const all = query.operator === 'and';
      return termBound(segments, query.field, (name, type) => (type === 'text' ? analyzerFor(name).tokens(query.text) : [query.text]), all, work);
    }
    case 'range':
      return rangeBound(segments, query);
    case 'phrase': {
      if (query.zeroTermsQuery !== undefined) return Infinity;
      const docs = termBound(segments, query.field, (name, type) => (type === 'text' ? analyzerFor(name).tokens(query.text) : [query.text]), true, work);
      // each doc of a phrase's lists comes with its positions
      return work ? docs * PHRASE_WORK_PER_DOC : docs;
    }
    case 'bool': {
      if (work) {
        const clauses = [...query.must, ...query.filter, ...query.should];
        // no clause but negations: every doc
        if (query.mustNot.length > 0 || clauses.length === 0) return Infinity;
        let sum = 0;
        for (const q of clauses) sum += bound(segments, q, true);
        return sum;
      }
      const required = [...query.must, ...query.filter];
      if (required.length > 0) {
        let min = Infinity;
        for (const q of required) min = Math.min(min, bound(segments, q, false));
        return min;
      }
      if (query.should.length === 0) return Infinity;
      let sum = 0;
      for (const q of query.should) sum += bound(segments, q, false);
      return sum;
    }
    default:
      return Infinity;
  }
}
