import type { Query } from '../ast.js';
import { parsePatternQuery } from './pattern-query.js';
import type { JsonObject } from './values.js';

/** `wildcard`: `*` any run, `?` one character, `\` escapes; the pattern is kept as written. */
export function parseWildcard(body: JsonObject): Query {
  const p = parsePatternQuery('wildcard', body, ['value', 'wildcard'], {});
  const q: Query = { kind: 'wildcard', field: p.field, pattern: p.value };
  if (p.caseInsensitive) q.caseInsensitive = true;
  if (p.boost !== undefined) q.boost = p.boost;
  return q;
}
