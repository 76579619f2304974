/**
 * An upper bound on the docs a query can match over some segments, read from term dictionaries
 * alone (document frequencies, no postings): term, match and phrase queries on text and keyword
 * fields and bools of them. Anything else has no cheap bound (Infinity). The query pool uses it
 * to answer tiny searches where they arrive instead of paying two thread hand-offs.
 */
import type { Query } from '../../query/index.js';
import { analyzerFor } from '../analysis/index.js';
import type { SegmentReader } from '../segment-reader.js';
import { resolveFieldName } from './field-names.js';

function termBound(
  segments: readonly SegmentReader[],
  field: string,
  terms: (name: string, type: 'text' | 'keyword') => string[],
  all: boolean,
): number {
  if (field.includes('*')) return Infinity;
  let total = 0;
  for (const segment of segments) {
    const name = resolveFieldName(segment, field);
    const type = segment.fieldType(name);
    if (type === undefined) continue;
    if (type !== 'text' && type !== 'keyword') return Infinity;
    const list = terms(name, type);
    // every token required: the rarest bounds the matches; any token: their sum does
    let bound = all && list.length > 0 ? Infinity : 0;
    for (const t of list) {
      const df = segment.docFreq(name, t);
      bound = all ? Math.min(bound, df) : bound + df;
    }
    total += bound;
  }
  return total;
}

export function matchUpperBound(segments: readonly SegmentReader[], query: Query): number {
  switch (query.kind) {
    case 'match_none':
      return 0;
    case 'term':
      if (query.caseInsensitive === true || typeof query.value !== 'string') return Infinity;
      return termBound(segments, query.field, () => [String(query.value)], false);
    case 'match': {
      // a prefix or a text without tokens has no cheap bound
      if (query.prefixMaxExpansions !== undefined || query.zeroTermsQuery !== undefined) return Infinity;
      // a match needing only some tokens is bounded by the sum, whatever the minimum
      const all = query.operator === 'and';
      return termBound(segments, query.field, (name, type) => (type === 'text' ? analyzerFor(name).tokens(query.text) : [query.text]), all);
    }
    case 'phrase':
      if (query.zeroTermsQuery !== undefined) return Infinity;
      return termBound(segments, query.field, (name, type) => (type === 'text' ? analyzerFor(name).tokens(query.text) : [query.text]), true);
    case 'bool': {
      const required = [...query.must, ...query.filter];
      if (required.length > 0) {
        let min = Infinity;
        for (const q of required) min = Math.min(min, matchUpperBound(segments, q));
        return min;
      }
      if (query.should.length === 0) return Infinity;
      let sum = 0;
      for (const q of query.should) sum += matchUpperBound(segments, q);
      return sum;
    }
    default:
      return Infinity;
  }
}
