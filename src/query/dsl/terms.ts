import type { Query, RawValue } from '../ast.js';
import { withBoost } from '../build.js';
import { missing, multipleFields, notSupported, wrongType } from './errors.js';
import { isObject, readRawValue, standardKeys, type JsonObject } from './values.js';

/** `{"terms": {"field": [v1, v2], "boost": 2}}`: any of the values. Terms lookup is not supported. */
export function parseTerms(body: JsonObject): Query {
  let boost: number | undefined;
  const standard = standardKeys('terms', (b) => (boost = b));
  let field: string | undefined;
  let values: RawValue[] = [];
  for (const [key, value] of Object.entries(body)) {
    const handler = Object.hasOwn(standard, key) ? standard[key] : undefined;
    if (handler) {
      handler(value);
      continue;
    }
    if (field !== undefined) throw multipleFields('terms', field, key);
    field = key;
    if (isObject(value)) throw notSupported('terms', 'terms lookup');
    if (!Array.isArray(value)) throw wrongType('terms', key, 'an array of values', value);
    values = value.map((v) => readRawValue('terms', key, v));
  }
  if (field === undefined) throw missing('terms', 'query requires a field with an array of values');
  if (field === '_id') return withBoost({ kind: 'ids', values: values.map(String) }, boost);
  return withBoost({ kind: 'terms', field, values }, boost);
}
