import type { Query, RawValue } from '../ast.js';
import { withBoost } from '../build.js';
import { missing, wrongType } from './errors.js';
import { fieldEntry } from './field-entry.js';
import { eachKey, isObject, readBoolean, readRawValue, standardKeys, type JsonObject } from './values.js';

/**
 * `{"term": {"field": value}}` or `{"term": {"field": {"value": v, "case_insensitive": true}}}`.
 * A term on `_id` is an ids query.
 */
export function parseTerm(body: JsonObject): Query {
  let outerBoost: number | undefined;
  const { field, value } = fieldEntry('term', body, standardKeys('term', (b) => (outerBoost = b)));
  let termValue: RawValue | undefined;
  let caseInsensitive = false;
  let boost: number | undefined;
  if (isObject(value)) {
    eachKey('term', value, {
      value: (v) => (termValue = readTermValue(v)),
      case_insensitive: (v) => (caseInsensitive = readBoolean('term', 'case_insensitive', v)),
      ...standardKeys('term', (b) => (boost = b)),
    });
    if (termValue === undefined) throw missing('term', 'query requires a [value]');
  } else {
    termValue = readTermValue(value, field);
  }
  let q: Query;
  if (field === '_id') q = { kind: 'ids', values: [String(termValue)] };
  else q = caseInsensitive ? { kind: 'term', field, value: termValue, caseInsensitive } : { kind: 'term', field, value: termValue };
  return withBoost(withBoost(q, outerBoost), boost);
}

function readTermValue(value: unknown, key = 'value'): RawValue {
  if (Array.isArray(value)) throw wrongType('term', key, 'a single value (use [terms] for several)', value);
  return readRawValue('term', key, value);
}
