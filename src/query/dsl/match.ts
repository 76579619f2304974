import type { Query, RawValue } from '../ast.js';
import { withBoost } from '../build.js';
import { resolveMinimumShouldMatch } from '../min-should-match.js';
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
  zeroTermsQuery?: 'all';
  /** match_bool_prefix */
  prefixMaxExpansions?: number;
}

/** More clauses than any query has: a spec that resolves for it is valid for every count. */
const ANY_COUNT = 1e9;

/**
 * One field's analyzed match. `minimum_should_match` is checked here and resolved by the engine
 * against the number of tokens the field's analyzer gives; like Elasticsearch it applies only
 * to `or` over two or more tokens. `_id` is not an indexed field: a match on it is an ids query.
 */
export function matchOn(query: string, field: string, text: string, settings: MatchSettings): Query {
  if (field === '_id') return { kind: 'ids', values: [text] };
  const q: Query = { kind: 'match', field, text, operator: settings.operator };
  const spec = settings.minimumShouldMatch;
  if (spec !== undefined && settings.operator === 'or') {
    if (resolveMinimumShouldMatch(ANY_COUNT, spec) === undefined) throw invalidValue(query, 'minimum_should_match', spec);
    q.minimumShouldMatch = spec;
  }
  if (settings.lenient) q.lenient = true;
  if (settings.zeroTermsQuery !== undefined) q.zeroTermsQuery = settings.zeroTermsQuery;
  if (settings.prefixMaxExpansions !== undefined) q.prefixMaxExpansions = settings.prefixMaxExpansions;
  return q;
}

/** Fuzzy matching is not implemented: `fuzziness` other than 0 is refused rather than ignored. */
export function checkFuzziness(query: string, value: unknown): void {
  if (value === 0 || value === '0') return;
  readRawValue(query, 'fuzziness', value);
  throw notSupported(query, 'fuzzy matching ([fuzziness])');
}

/** `zero_terms_query`: `all` when a text without tokens should match every document. */
export function readZeroTermsQuery(query: string, value: unknown): 'all' | undefined {
  const text = readString(query, 'zero_terms_query', value).toLowerCase();
  if (text !== 'none' && text !== 'all') throw invalidValue(query, 'zero_terms_query', value, 'unsupported zero_terms_query value');
  return text === 'all' ? 'all' : undefined;
}

/**
 * Keys of the analyzed queries: `analyzer` and synonyms change nothing here (analysis is fixed
 * per field); `zero_terms_query` goes to `onZeroTerms`.
 */
export function analysisKeys(query: string, onZeroTerms: (value: 'all' | undefined) => void): Record<string, (value: unknown) => void> {
  return {
    analyzer: ignoredString(query, 'analyzer'),
    auto_generate_synonyms_phrase_query: ignoredBoolean(query, 'auto_generate_synonyms_phrase_query'),
    zero_terms_query: (v) => onZeroTerms(readZeroTermsQuery(query, v)),
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
    ...analysisKeys('match', (z) => (settings.zeroTermsQuery = z)),
    ...standardKeys('match', (b) => (boost = b)),
  });
  if (text === undefined) throw missing('match', 'requires a [query] value');
  return withBoost(matchOn('match', field, text, settings), boost);
}
