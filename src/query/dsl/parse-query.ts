import { BadRequestError, ParsingError } from '../../common/errors.js';
import type { Query } from '../ast.js';
import { parseBool } from './bool.js';
import { parseConstantScore } from './constant-score.js';
import type { DslContext, QueryKindParser } from './context.js';
import { parseDisMax } from './dis-max.js';
import { malformed, unknownQuery } from './errors.js';
import { parseExists } from './exists.js';
import { parseIds } from './ids.js';
import { parseMatch } from './match.js';
import { parseMatchAll } from './match-all.js';
import { parseMatchNone } from './match-none.js';
import { parseMatchPhrase } from './match-phrase.js';
import { parseMatchBoolPrefix } from './match-bool-prefix.js';
import { parseMatchPhrasePrefix } from './match-phrase-prefix.js';
import { parseMultiMatch } from './multi-match.js';
import { parsePrefix } from './prefix.js';
import { parseQueryStringQuery } from './query-string.js';
import { parseRange } from './range.js';
import { parseRegexp } from './regexp.js';
import { parseSimpleQueryStringQuery } from './simple-query-string.js';
import { parseTerm } from './term.js';
import { parseTerms } from './terms.js';
import { isObject } from './values.js';
import { parseWildcard } from './wildcard.js';

const KINDS: Readonly<Record<string, QueryKindParser>> = {
  match_all: parseMatchAll,
  match_none: parseMatchNone,
  bool: parseBool,
  match: parseMatch,
  match_phrase: parseMatchPhrase,
  match_phrase_prefix: parseMatchPhrasePrefix,
  match_bool_prefix: parseMatchBoolPrefix,
  multi_match: parseMultiMatch,
  query_string: parseQueryStringQuery,
  simple_query_string: parseSimpleQueryStringQuery,
  term: parseTerm,
  terms: parseTerms,
  range: parseRange,
  exists: parseExists,
  wildcard: parseWildcard,
  prefix: parsePrefix,
  regexp: parseRegexp,
  ids: parseIds,
  constant_score: parseConstantScore,
  dis_max: parseDisMax,
};

/** Deeper bodies are refused before they can exhaust the stack. */
export const MAX_QUERY_DEPTH = 100;

/**
 * Parses the value of a search body's `query` key: an object with exactly one key, the query
 * kind, whose value is that kind's object.
 */
export function parseQueryDsl(body: unknown): Query {
  return parseAtDepth(body, 1);
}

function parseAtDepth(body: unknown, depth: number): Query {
  if (depth > MAX_QUERY_DEPTH) {
    throw new BadRequestError(`query is nested too deeply: more than ${MAX_QUERY_DEPTH} levels`);
  }
  if (!isObject(body)) throw new ParsingError('[_na] query malformed, must start with start_object');
  const keys = Object.keys(body);
  const name = keys[0];
  if (name === undefined) throw new BadRequestError('query malformed, empty clause found');
  const value = body[name];
  if (!isObject(value)) throw new ParsingError(`[${name}] query malformed, no start_object after query name`);
  const parse = Object.hasOwn(KINDS, name) ? KINDS[name] : undefined;
  if (!parse) throw unknownQuery(name);
  const context: DslContext = { parseQuery: (inner) => parseAtDepth(inner, depth + 1) };
  const query = parse(value, context);
  if (keys.length > 1) throw malformed(name);
  return query;
}
