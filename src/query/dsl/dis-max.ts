import type { Query } from '../ast.js';
import { anyOf, withBoost } from '../build.js';
import type { DslContext } from './context.js';
import { missing, wrongType } from './errors.js';
import { eachKey, ignoredNumber, isObject, standardKeys, type JsonObject } from './values.js';

/** `dis_max`: any of `queries` (the tie breaker only changes scores). */
export function parseDisMax(body: JsonObject, ctx: DslContext): Query {
  const queries: Query[] = [];
  let boost: number | undefined;
  eachKey('dis_max', body, {
    queries: (v) => {
      const list = Array.isArray(v) ? v : [v];
      for (const item of list) {
        if (!isObject(item)) throw wrongType('dis_max', 'queries', 'an array of objects', item);
        queries.push(ctx.parseQuery(item));
      }
    },
    tie_breaker: ignoredNumber('dis_max', 'tie_breaker'),
    ...standardKeys('dis_max', (b) => (boost = b)),
  });
  if (queries.length === 0) throw missing('dis_max', "requires 'queries' field with at least one clause");
  return withBoost(anyOf(queries), boost);
}
