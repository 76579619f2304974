import type { Query } from '../ast.js';
import { resolveMinimumShouldMatch } from '../min-should-match.js';
import { invalidValue } from './errors.js';

/** `minimum_should_match` of query_string and simple_query_string: applies to the top-level bool. */
export function applyTopLevelMinimumShouldMatch(query: string, q: Query, spec: string | number | undefined): Query {
  if (spec === undefined || q.kind !== 'bool') return q;
  const n = resolveMinimumShouldMatch(q.should.length, spec);
  if (n === undefined) throw invalidValue(query, 'minimum_should_match', spec);
  return n > 0 ? { ...q, minimumShouldMatch: n } : q;
}
