import type { Query } from '../ast.js';
import { withBoost } from '../build.js';
import { missing } from './errors.js';
import { eachKey, readString, standardKeys, type JsonObject } from './values.js';

/** `{"exists": {"field": "host"}}`: documents with a value in the field. */
export function parseExists(body: JsonObject): Query {
  let field: string | undefined;
  let boost: number | undefined;
  eachKey('exists', body, {
    field: (v) => (field = readString('exists', 'field', v)),
    ...standardKeys('exists', (b) => (boost = b)),
  });
  if (field === undefined || field === '') throw missing('exists', 'must be provided with a [field]');
  return withBoost({ kind: 'exists', field }, boost);
}
