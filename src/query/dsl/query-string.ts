import { isValidTimeZone } from '../../common/date-math.js';
import { BadRequestError } from '../../common/errors.js';
import type { Query } from '../ast.js';
import { withBoost } from '../build.js';
import { parseQueryString, type QueryStringOptions } from '../query-string/index.js';
import { invalidValue, missing, notSupported } from './errors.js';
import { checkFuzziness } from './match.js';
import { applyTopLevelMinimumShouldMatch } from './top-level-msm.js';
import {
  eachKey,
  ignoredBoolean,
  ignoredNumber,
  ignoredString,
  readBoolean,
  readInteger,
  readMinimumShouldMatch,
  readOperator,
  readString,
  readStringList,
  standardKeys,
  type JsonObject,
} from './values.js';

/**
 * `query_string`: the Lucene syntax of `q=`. Fields come from `fields`, else `default_field`,
 * else `_line`. An empty query matches nothing, as in Elasticsearch (unlike an empty `q=`).
 */
export function parseQueryStringQuery(body: JsonObject): Query {
  const name = 'query_string';
  let text: string | undefined;
  let defaultField: string | undefined;
  let fields: string[] = [];
  let spec: string | number | undefined;
  let boost: number | undefined;
  const options: QueryStringOptions = {};
  eachKey(name, body, {
    query: (v) => (text = readString(name, 'query', v)),
    default_field: (v) => (defaultField = readString(name, 'default_field', v)),
    fields: (v) => (fields = readStringList(name, 'fields', v)),
    default_operator: (v) => (options.defaultOperator = readOperator(name, 'default_operator', v)),
    lenient: (v) => (options.lenient = readBoolean(name, 'lenient', v)),
    allow_leading_wildcard: (v) => (options.allowLeadingWildcard = readBoolean(name, 'allow_leading_wildcard', v)),
    phrase_slop: (v) => (options.phraseSlop = Math.max(0, readInteger(name, 'phrase_slop', v))),
    time_zone: (v) => (options.timeZone = readTimeZone(name, v)),
    minimum_should_match: (v) => (spec = readMinimumShouldMatch(name, 'minimum_should_match', v)),
    fuzziness: (v) => checkFuzziness(name, v),
    analyzer: ignoredString(name, 'analyzer'),
    quote_analyzer: ignoredString(name, 'quote_analyzer'),
    quote_field_suffix: ignoredString(name, 'quote_field_suffix'),
    analyze_wildcard: ignoredBoolean(name, 'analyze_wildcard'),
    auto_generate_synonyms_phrase_query: ignoredBoolean(name, 'auto_generate_synonyms_phrase_query'),
    enable_position_increments: ignoredBoolean(name, 'enable_position_increments'),
    escape: ignoredBoolean(name, 'escape'),
    fuzzy_max_expansions: ignoredNumber(name, 'fuzzy_max_expansions'),
    fuzzy_prefix_length: ignoredNumber(name, 'fuzzy_prefix_length'),
    fuzzy_transpositions: ignoredBoolean(name, 'fuzzy_transpositions'),
    fuzzy_rewrite: ignoredString(name, 'fuzzy_rewrite'),
    max_determinized_states: ignoredNumber(name, 'max_determinized_states'),
    rewrite: ignoredString(name, 'rewrite'),
    tie_breaker: ignoredNumber(name, 'tie_breaker'),
    type: (v) => checkType(name, v),
    ...standardKeys(name, (b) => (boost = b)),
  });
  if (text === undefined) throw missing(name, 'query_string must be provided with a [query]');
  if (defaultField !== undefined && fields.length > 0) {
    throw new BadRequestError(`[${name}] cannot use [fields] parameter in conjunction with [default_field]`);
  }
  if (text.trim() === '') return { kind: 'match_none' };
  if (fields.length > 0) options.defaultFields = fields;
  else if (defaultField !== undefined) options.defaultFields = [defaultField];
  const q = applyTopLevelMinimumShouldMatch(name, parseQueryString(text, options), spec);
  return withBoost(q, boost);
}

export function readTimeZone(query: string, value: unknown): string {
  const zone = readString(query, 'time_zone', value);
  if (!isValidTimeZone(zone)) throw invalidValue(query, 'time_zone', zone, 'unknown time zone');
  return zone;
}

/** The multi-field `type`: every type matches the same documents here (it changes scoring). */
function checkType(query: string, value: unknown): void {
  const type = readString(query, 'type', value).toLowerCase();
  if (type === 'bool_prefix') throw notSupported(query, 'type [bool_prefix]');
  if (!['best_fields', 'most_fields', 'cross_fields', 'phrase', 'phrase_prefix'].includes(type)) {
    throw invalidValue(query, 'type', value, 'unknown type');
  }
}
