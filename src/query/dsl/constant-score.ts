import type { Query } from '../ast.js';
import { withBoost } from '../build.js';
import type { DslContext } from './context.js';
import { missing, wrongType } from './errors.js';
import { eachKey, isObject, standardKeys, type JsonObject } from './values.js';

/** `{"constant_score": {"filter": {...}, "boost": 1.2}}`. */
export function parseConstantScore(body: JsonObject, ctx: DslContext): Query {
  let filter: Query | undefined;
  let boost: number | undefined;
  eachKey('constant_score', body, {
    filter: (v) => {
      if (!isObject(v)) throw wrongType('constant_score', 'filter', 'an object', v);
      filter = ctx.parseQuery(v);
    },
    ...standardKeys('constant_score', (b) => (boost = b)),
  });
  if (filter === undefined) throw missing('constant_score', "requires a 'filter' element");
  return withBoost({ kind: 'constant_score', filter }, boost);
}
