import type { Query } from '../ast.js';
import { boolQuery, withBoost } from '../build.js';
import { resolveMinimumShouldMatch } from '../min-should-match.js';
import type { DslContext } from './context.js';
import { invalidValue, wrongType } from './errors.js';
import { eachKey, isObject, readBoolean, readMinimumShouldMatch, standardKeys, type JsonObject } from './values.js';

/**
 * `bool`: each occurrence holds one query or an array of them. `minimum_should_match` is
 * resolved against the number of should clauses; a result of 0 or less leaves the default.
 * A bool with no clauses matches everything; a purely negative one matches everything not
 * excluded, unless `adjust_pure_negative` is false (then, as in Lucene, nothing).
 */
export function parseBool(body: JsonObject, ctx: DslContext): Query {
  const q = boolQuery({});
  let spec: string | number | undefined;
  let boost: number | undefined;
  let adjustPureNegative = true;
  const clauses = (target: Query[], key: string) => (value: unknown) => {
    if (isObject(value)) {
      target.push(ctx.parseQuery(value));
      return;
    }
    if (!Array.isArray(value)) throw wrongType('bool', key, 'an object or an array of objects', value);
    for (const item of value) {
      if (!isObject(item)) throw wrongType('bool', key, 'an object or an array of objects', item);
      target.push(ctx.parseQuery(item));
    }
  };
  eachKey('bool', body, {
    must: clauses(q.must, 'must'),
    should: clauses(q.should, 'should'),
    must_not: clauses(q.mustNot, 'must_not'),
    mustNot: clauses(q.mustNot, 'mustNot'),
    filter: clauses(q.filter, 'filter'),
    minimum_should_match: (v) => (spec = readMinimumShouldMatch('bool', 'minimum_should_match', v)),
    adjust_pure_negative: (v) => (adjustPureNegative = readBoolean('bool', 'adjust_pure_negative', v)),
    ...standardKeys('bool', (b) => (boost = b)),
  });
  const clauseCount = q.must.length + q.should.length + q.mustNot.length + q.filter.length;
  if (clauseCount === 0) return withBoost({ kind: 'match_all' }, boost);
  if (!adjustPureNegative && clauseCount === q.mustNot.length) return { kind: 'match_none' };
  if (spec !== undefined) {
    const n = resolveMinimumShouldMatch(q.should.length, spec);
    if (n === undefined) throw invalidValue('bool', 'minimum_should_match', spec);
    if (n > 0) q.minimumShouldMatch = n;
  }
  return withBoost(q, boost);
}
