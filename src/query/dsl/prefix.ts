import type { Query } from '../ast.js';
import { parsePatternQuery } from './pattern-query.js';
import type { JsonObject } from './values.js';

export function parsePrefix(body: JsonObject): Query {
  const p = parsePatternQuery('prefix', body, ['value', 'prefix'], {});
  const q: Query = { kind: 'prefix', field: p.field, prefix: p.value };
  if (p.caseInsensitive) q.caseInsensitive = true;
  if (p.boost !== undefined) q.boost = p.boost;
  return q;
}
