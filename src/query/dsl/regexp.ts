import type { Query } from '../ast.js';
import { parsePatternQuery } from './pattern-query.js';
import { readInteger, readString, type JsonObject } from './values.js';

/** `regexp` (Lucene syntax, anchored); `flags` and the determinization limit are accepted, unused. */
export function parseRegexp(body: JsonObject): Query {
  const p = parsePatternQuery('regexp', body, ['value'], {
    flags: (v) => void readString('regexp', 'flags', v),
    flags_value: (v) => void readInteger('regexp', 'flags_value', v),
    max_determinized_states: (v) => void readInteger('regexp', 'max_determinized_states', v),
  });
  const q: Query = { kind: 'regexp', field: p.field, pattern: p.value };
  if (p.caseInsensitive) q.caseInsensitive = true;
  if (p.boost !== undefined) q.boost = p.boost;
  return q;
}
