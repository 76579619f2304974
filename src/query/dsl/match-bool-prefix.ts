import type { Query } from '../ast.js';
import { withBoost } from '../build.js';
import { missing } from './errors.js';
import { fieldEntry } from './field-entry.js';
import { checkFuzziness, matchOn, textOf, type MatchSettings } from './match.js';
import { DEFAULT_MAX_EXPANSIONS } from './match-phrase-prefix.js';
import {
  eachKey,
  ignoredBoolean,
  ignoredNumber,
  ignoredString,
  isObject,
  readInteger,
  readMinimumShouldMatch,
  readOperator,
  readRawValue,
  standardKeys,
  type JsonObject,
} from './values.js';

/**
 * `match_bool_prefix`: the analyzed words as a match (`operator`, `minimum_should_match`), the
 * last one taken as a prefix of at most `max_expansions` terms. On a keyword field the whole
 * text is the prefix.
 */
export function parseMatchBoolPrefix(body: JsonObject): Query {
  const name = 'match_bool_prefix';
  const { field, value } = fieldEntry(name, body);
  const settings: MatchSettings = { operator: 'or', prefixMaxExpansions: DEFAULT_MAX_EXPANSIONS };
  if (!isObject(value)) return matchOn(name, field, textOf(readRawValue(name, field, value)), settings);
  let text: string | undefined;
  let boost: number | undefined;
  eachKey(name, value, {
    query: (v) => (text = textOf(readRawValue(name, 'query', v))),
    operator: (v) => (settings.operator = readOperator(name, 'operator', v)),
    minimum_should_match: (v) => (settings.minimumShouldMatch = readMinimumShouldMatch(name, 'minimum_should_match', v)),
    max_expansions: (v) => (settings.prefixMaxExpansions = Math.max(1, readInteger(name, 'max_expansions', v))),
    fuzziness: (v) => checkFuzziness(name, v),
    prefix_length: ignoredNumber(name, 'prefix_length'),
    fuzzy_transpositions: ignoredBoolean(name, 'fuzzy_transpositions'),
    fuzzy_rewrite: ignoredString(name, 'fuzzy_rewrite'),
    analyzer: ignoredString(name, 'analyzer'),
    ...standardKeys(name, (b) => (boost = b)),
  });
  if (text === undefined) throw missing(name, 'requires a [query] value');
  return withBoost(matchOn(name, field, text, settings), boost);
}
