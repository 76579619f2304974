import type { Query } from '../ast.js';
import { withBoost } from '../build.js';
import { unknownField } from './errors.js';
import { eachKey, standardKeys, type JsonObject } from './values.js';

/** `{"match_all": {}}`; unknown keys fail the way Elasticsearch's object parser fails them. */
export function parseMatchAll(body: JsonObject): Query {
  let boost: number | undefined;
  eachKey('match_all', body, standardKeys('match_all', (b) => (boost = b)), unknownField);
  return withBoost({ kind: 'match_all' }, boost);
}
