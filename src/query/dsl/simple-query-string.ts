import type { Query } from '../ast.js';
import { withBoost } from '../build.js';
import { parseSimpleFlags, parseSimpleQueryString, type SimpleQueryStringOptions } from '../simple-query-string/index.js';
import { missing, wrongType } from './errors.js';
import { applyTopLevelMinimumShouldMatch } from './top-level-msm.js';
import {
  eachKey,
  ignoredBoolean,
  ignoredNumber,
  ignoredString,
  readBoolean,
  readMinimumShouldMatch,
  readOperator,
  readString,
  readStringList,
  standardKeys,
  type JsonObject,
} from './values.js';

/** `simple_query_string`: the forgiving syntax (see simple-query-string/parser.ts); never a syntax error. */
export function parseSimpleQueryStringQuery(body: JsonObject): Query {
  const name = 'simple_query_string';
  let text: string | undefined;
  let spec: string | number | undefined;
  let boost: number | undefined;
  const options: SimpleQueryStringOptions = {};
  eachKey(name, body, {
    query: (v) => (text = readString(name, 'query', v)),
    fields: (v) => (options.fields = readStringList(name, 'fields', v)),
    default_operator: (v) => (options.defaultOperator = readOperator(name, 'default_operator', v)),
    flags: (v) => (options.flags = readFlags(v)),
    lenient: (v) => (options.lenient = readBoolean(name, 'lenient', v)),
    minimum_should_match: (v) => (spec = readMinimumShouldMatch(name, 'minimum_should_match', v)),
    analyzer: ignoredString(name, 'analyzer'),
    analyze_wildcard: ignoredBoolean(name, 'analyze_wildcard'),
    auto_generate_synonyms_phrase_query: ignoredBoolean(name, 'auto_generate_synonyms_phrase_query'),
    fuzzy_prefix_length: ignoredNumber(name, 'fuzzy_prefix_length'),
    fuzzy_max_expansions: ignoredNumber(name, 'fuzzy_max_expansions'),
    fuzzy_transpositions: ignoredBoolean(name, 'fuzzy_transpositions'),
    quote_field_suffix: ignoredString(name, 'quote_field_suffix'),
    ...standardKeys(name, (b) => (boost = b)),
  });
  if (text === undefined) throw missing(name, 'requires a [query] value');
  const q = applyTopLevelMinimumShouldMatch(name, parseSimpleQueryString(text, options), spec);
  return withBoost(q, boost);
}

function readFlags(value: unknown): number {
  if (typeof value === 'string') return parseSimpleFlags(value);
  if (typeof value === 'number' && Number.isInteger(value)) return parseSimpleFlags(value);
  throw wrongType('simple_query_string', 'flags', 'a string or an integer', value);
}
