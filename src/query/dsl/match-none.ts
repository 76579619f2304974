import type { Query } from '../ast.js';
import { withBoost } from '../build.js';
import { eachKey, standardKeys, type JsonObject } from './values.js';

export function parseMatchNone(body: JsonObject): Query {
  let boost: number | undefined;
  eachKey('match_none', body, standardKeys('match_none', (b) => (boost = b)));
  return withBoost({ kind: 'match_none' }, boost);
}
