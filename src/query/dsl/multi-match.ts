import type { Query } from '../ast.js';
import { onFields, parseFieldSpecs, withBoost } from '../build.js';
import { invalidValue, missing } from './errors.js';
import { analysisKeys, checkFuzziness, matchOn, textOf, type MatchSettings } from './match.js';
import { DEFAULT_MAX_EXPANSIONS } from './match-phrase-prefix.js';
import {
  eachKey,
  ignoredBoolean,
  ignoredNumber,
  ignoredString,
  readBoolean,
  readInteger,
  readMinimumShouldMatch,
  readOperator,
  readRawValue,
  readString,
  readStringList,
  standardKeys,
  type JsonObject,
} from './values.js';

type MultiMatchType = 'best_fields' | 'most_fields' | 'cross_fields' | 'phrase' | 'phrase_prefix' | 'bool_prefix';

const TYPES: ReadonlySet<string> = new Set(['best_fields', 'most_fields', 'cross_fields', 'phrase', 'phrase_prefix', 'bool_prefix']);

/**
 * `multi_match`: the same text on several fields (`name^boost` allowed; none or `*` means the
 * default field; `*` patterns such as `mess*` name every matching field), ORed: a document
 * matches when one field does. best_fields, most_fields and cross_fields differ in Elasticsearch
 * only in scoring and, for cross_fields, in letting the words of an `and` query spread over the
 * fields; here all three match field by field. phrase, phrase_prefix and bool_prefix are
 * match_phrase, match_phrase_prefix and match_bool_prefix on each field.
 */
export function parseMultiMatch(body: JsonObject): Query {
  const name = 'multi_match';
  let text: string | undefined;
  let fields: string[] = [];
  let type: MultiMatchType = 'best_fields';
  let slop = 0;
  let maxExpansions = DEFAULT_MAX_EXPANSIONS;
  let boost: number | undefined;
  const settings: MatchSettings = { operator: 'or' };
  eachKey(name, body, {
    query: (v) => (text = textOf(readRawValue(name, 'query', v))),
    fields: (v) => (fields = readStringList(name, 'fields', v)),
    type: (v) => (type = readType(v)),
    operator: (v) => (settings.operator = readOperator(name, 'operator', v)),
    minimum_should_match: (v) => (settings.minimumShouldMatch = readMinimumShouldMatch(name, 'minimum_should_match', v)),
    lenient: (v) => (settings.lenient = readBoolean(name, 'lenient', v)),
    slop: (v) => (slop = Math.max(0, readInteger(name, 'slop', v))),
    max_expansions: (v) => (maxExpansions = Math.max(1, readInteger(name, 'max_expansions', v))),
    fuzziness: (v) => checkFuzziness(name, v),
    prefix_length: ignoredNumber(name, 'prefix_length'),
    fuzzy_transpositions: ignoredBoolean(name, 'fuzzy_transpositions'),
    fuzzy_rewrite: ignoredString(name, 'fuzzy_rewrite'),
    rewrite: ignoredString(name, 'rewrite'),
    cutoff_frequency: ignoredNumber(name, 'cutoff_frequency'),
    tie_breaker: ignoredNumber(name, 'tie_breaker'),
    use_dis_max: ignoredBoolean(name, 'use_dis_max'),
    ...analysisKeys(name, (z) => (settings.zeroTermsQuery = z)),
    ...standardKeys(name, (b) => (boost = b)),
  });
  if (text === undefined) throw missing(name, 'requires a [query] value');
  const words = text;
  const shared = { ...(settings.lenient ? { lenient: true } : {}), ...(settings.zeroTermsQuery ? { zeroTermsQuery: settings.zeroTermsQuery } : {}) };
  // set by the key handlers above, which the compiler does not follow
  if ((type as MultiMatchType) === 'bool_prefix') settings.prefixMaxExpansions = maxExpansions;
  const q = onFields(parseFieldSpecs(fields.length > 0 ? fields : ['*']), (field): Query => {
    switch (type) {
      case 'phrase':
        return { kind: 'phrase', field, text: words, slop, ...shared };
      case 'phrase_prefix':
        return { kind: 'phrase_prefix', field, text: words, maxExpansions, ...shared };
      default:
        return matchOn(name, field, words, settings);
    }
  });
  return withBoost(q, boost);
}

function readType(value: unknown): MultiMatchType {
  const text = readString('multi_match', 'type', value).toLowerCase();
  if (!isType(text)) throw invalidValue('multi_match', 'type', value, 'unknown type');
  return text;
}

function isType(text: string): text is MultiMatchType {
  return TYPES.has(text);
}
