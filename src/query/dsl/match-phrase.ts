import type { Query } from '../ast.js';
import { withBoost } from '../build.js';
import { missing } from './errors.js';
import { fieldEntry } from './field-entry.js';
import { analysisKeys, textOf } from './match.js';
import { eachKey, isObject, readInteger, readRawValue, standardKeys, type JsonObject } from './values.js';

/** `{"match_phrase": {"field": "a b"}}` or the long form with `query` and `slop`. */
export function parseMatchPhrase(body: JsonObject): Query {
  const { field, value } = fieldEntry('match_phrase', body);
  if (!isObject(value)) {
    return { kind: 'phrase', field, text: textOf(readRawValue('match_phrase', field, value)), slop: 0 };
  }
  let text: string | undefined;
  let slop = 0;
  let boost: number | undefined;
  let zeroTerms: 'all' | undefined;
  eachKey('match_phrase', value, {
    query: (v) => (text = textOf(readRawValue('match_phrase', 'query', v))),
    slop: (v) => (slop = Math.max(0, readInteger('match_phrase', 'slop', v))),
    ...analysisKeys('match_phrase', (z) => (zeroTerms = z)),
    ...standardKeys('match_phrase', (b) => (boost = b)),
  });
  if (text === undefined) throw missing('match_phrase', 'requires a [query] value');
  return withBoost({ kind: 'phrase', field, text, slop, ...(zeroTerms ? { zeroTermsQuery: zeroTerms } : {}) }, boost);
}
