import type { Query, RawValue } from '../ast.js';
import { withBoost } from '../build.js';
import { resolveMinimumShouldMatch } from '../min-should-match.js';
import { countTextTokens } from '../text-tokens.js';
import { invalidValue, missing, notSupported } from './errors.js';
import { fieldEntry } from './field-entry.js';
import {
  eachKey,
  ignoredBoolean,
  ignoredNumber,
  ignoredString,
  isObject,
  readBoolean,
  readMinimumShouldMatch,
  readOperator,
  readRawValue,
  readString,
  standardKeys,
  type JsonObject,
} from './values.js';

export interface MatchSettings {
  operator: 'or' | 'and';
  minimumShouldMatch?: string | number;
  lenient?: boolean;
}

/**
 * One field's analyzed match. `minimum_should_match` is resolved against the number of words
 * the text analyzes into; like Elasticsearch it applies only to `or` over two or more words.
 * `_id` is not an indexed field: a match on it is an ids query.
 */
export function matchOn(query: string, field: string, text: string, settings: MatchSettings): Query {
  if (field === '_id') return { kind: 'ids', values: [text] };
  const q: Query = { kind: 'match', field, text, operator: settings.operator };
  const spec = settings.minimumShouldMatch;
  if (spec !== undefined && settings.operator === 'or') {
    const tokens = countTextTokens(text);
    const n = resolveMinimumShouldMatch(tokens, spec);
    if (n === undefined) throw invalidValue(query, 'minimum_should_match', spec);
    if (tokens > 1 && n > 0) q.minimumShouldMatch = n;
  }
  if (settings.lenient) q.lenient = true;
  return q;
}

/** Fuzzy matching is not implemented: `fuzziness` other than 0 is refused rather than ignored. */
export function checkFuzziness(query: string, value: unknown): void {
  if (value === 0 || value === '0') return;
  readRawValue(query, 'fuzziness', value);
  throw notSupported(query, 'fuzzy matching ([fuzziness])');
}

export function checkZeroTermsQuery(query: string, value: unknown): void {
  const text = readString(query, 'zero_terms_query', value).toLowerCase();
  if (text !== 'none' && text !== 'all') throw invalidValue(query, 'zero_terms_query', value, 'unsupported zero_terms_query value');
}

/** Keys of the analyzed queries that change nothing here (analysis is fixed per field). */
export function analysisKeys(query: string): Record<string, (value: unknown) => void> {
  return {
    analyzer: ignoredString(query, 'analyzer'),
    auto_generate_synonyms_phrase_query: ignoredBoolean(query, 'auto_generate_synonyms_phrase_query'),
    zero_terms_query: (v) => checkZeroTermsQuery(query, v),
  };
}

export function textOf(value: RawValue): string {
  return String(value);
}

/** `{"match": {"field": "text"}}` or `{"match": {"field": {"query": "text", "operator": "and", ...}}}`. */
export function parseMatch(body: JsonObject): Query {
  const { field, value } = fieldEntry('match', body);
  if (!isObject(value)) return matchOn('match', field, textOf(readRawValue('match', field, value)), { operator: 'or' });
  let text: string | undefined;
  let boost: number | undefined;
  const settings: MatchSettings = { operator: 'or' };
  eachKey('match', value, {
    query: (v) => (text = textOf(readRawValue('match', 'query', v))),
    operator: (v) => (settings.operator = readOperator('match', 'operator', v)),
    minimum_should_match: (v) => (settings.minimumShouldMatch = readMinimumShouldMatch('match', 'minimum_should_match', v)),
    lenient: (v) => (settings.lenient = readBoolean('match', 'lenient', v)),
    fuzziness: (v) => checkFuzziness('match', v),
    prefix_length: ignoredNumber('match', 'prefix_length'),
    max_expansions: ignoredNumber('match', 'max_expansions'),
    fuzzy_transpositions: ignoredBoolean('match', 'fuzzy_transpositions'),
    fuzzy_rewrite: ignoredString('match', 'fuzzy_rewrite'),
    cutoff_frequency: ignoredNumber('match', 'cutoff_frequency'),
    ...analysisKeys('match'),
    ...standardKeys('match', (b) => (boost = b)),
  });
  if (text === undefined) throw missing('match', 'requires a [query] value');
  return withBoost(matchOn('match', field, text, settings), boost);
}
