import type { Query } from '../ast.js';
import { withBoost } from '../build.js';
import { missing } from './errors.js';
import { fieldEntry } from './field-entry.js';
import { analysisKeys, textOf } from './match.js';
import { eachKey, ignoredNumber, isObject, readInteger, readRawValue, standardKeys, type JsonObject } from './values.js';

export const DEFAULT_MAX_EXPANSIONS = 50;

/** `match_phrase_prefix`: the phrase with its last word taken as a prefix (`slop` accepted, unused). */
export function parseMatchPhrasePrefix(body: JsonObject): Query {
  const name = 'match_phrase_prefix';
  const { field, value } = fieldEntry(name, body);
  if (!isObject(value)) {
    const text = textOf(readRawValue(name, field, value));
    return { kind: 'phrase_prefix', field, text, maxExpansions: DEFAULT_MAX_EXPANSIONS };
  }
  let text: string | undefined;
  let maxExpansions = DEFAULT_MAX_EXPANSIONS;
  let boost: number | undefined;
  let zeroTerms: 'all' | undefined;
  eachKey(name, value, {
    query: (v) => (text = textOf(readRawValue(name, 'query', v))),
    max_expansions: (v) => (maxExpansions = Math.max(1, readInteger(name, 'max_expansions', v))),
    slop: ignoredNumber(name, 'slop'),
    ...analysisKeys(name, (z) => (zeroTerms = z)),
    ...standardKeys(name, (b) => (boost = b)),
  });
  if (text === undefined) throw missing(name, 'requires a [query] value');
  return withBoost({ kind: 'phrase_prefix', field, text, maxExpansions, ...(zeroTerms ? { zeroTermsQuery: zeroTerms } : {}) }, boost);
}
