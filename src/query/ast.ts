/**
 * The one query AST. Both front ends (the Lucene query-string syntax and the Query DSL) compile
 * to it; the engine plans and executes it. Nothing here knows an analyzer or a field's type:
 * `match` and `phrase` carry raw text that the engine analyzes per field, range bounds carry raw
 * values that the engine converts per field type (numbers, dates with date math, keywords).
 */

/** A raw bound or value as written by the user: the engine decides how to read it. */
export type RawValue = string | number | boolean;

export type Query =
  | MatchAllQuery
  | MatchNoneQuery
  | MatchQuery
  | PhraseQuery
  | PhrasePrefixQuery
  | TermQuery
  | TermsQuery
  | RangeQuery
  | ExistsQuery
  | PrefixQuery
  | WildcardQuery
  | RegexpQuery
  | IdsQuery
  | BoolQuery
  | ConstantScoreQuery;

export interface MatchAllQuery {
  kind: 'match_all';
  boost?: number;
}

export interface MatchNoneQuery {
  kind: 'match_none';
  boost?: number;
}

/**
 * Analyzed match. On a text field the text is split into tokens by the field's analyzer and
 * combined with `operator`; on a keyword field the whole text must equal the value; on a numeric,
 * date or boolean field the text is parsed as that type and compared for equality.
 */
export interface MatchQuery {
  kind: 'match';
  field: string;
  text: string;
  operator: 'or' | 'and';
  /**
   * For `operator: 'or'`: how many tokens must match, as Elasticsearch's `minimum_should_match`
   * spec (`2`, `-1`, `75%`, `2<-25%`), resolved by the engine against the number of tokens the
   * field's analyzer gives; it applies to two tokens or more.
   */
  minimumShouldMatch?: string | number;
  /** Text that cannot be read as the field's type (e.g. `abc` on a long field) matches nothing instead of failing. */
  lenient?: boolean;
  /** `all`: a text that analyzes to no token matches every document (else none). */
  zeroTermsQuery?: 'all';
  /** match_bool_prefix: the last token is a prefix, expanded to at most this many terms. */
  prefixMaxExpansions?: number;
  boost?: number;
}

/** Analyzed phrase: tokens in order, at most `slop` positions apart (0 = adjacent). */
export interface PhraseQuery {
  kind: 'phrase';
  field: string;
  text: string;
  slop: number;
  lenient?: boolean;
  zeroTermsQuery?: 'all';
  boost?: number;
}

/** Like phrase, the last token taken as a prefix (match_phrase_prefix). */
export interface PhrasePrefixQuery {
  kind: 'phrase_prefix';
  field: string;
  text: string;
  maxExpansions: number;
  lenient?: boolean;
  zeroTermsQuery?: 'all';
  boost?: number;
}

/** Exact, not analyzed: a token of a text field, a whole keyword, a number, a boolean. */
export interface TermQuery {
  kind: 'term';
  field: string;
  value: RawValue;
  caseInsensitive?: boolean;
  boost?: number;
}

export interface TermsQuery {
  kind: 'terms';
  field: string;
  values: RawValue[];
  boost?: number;
}

export interface RangeQuery {
  kind: 'range';
  field: string;
  gt?: RawValue;
  gte?: RawValue;
  lt?: RawValue;
  lte?: RawValue;
  /** Date format hint from the DSL (`epoch_millis`, `epoch_second`, `strict_date_optional_time`, ...). */
  format?: string;
  /** Time zone for date parsing and rounding, e.g. `+01:00` or `Europe/Paris` (DSL `time_zone`). */
  timeZone?: string;
  /** Bounds that cannot be read as the field's type match nothing instead of failing (query_string `lenient`). */
  lenient?: boolean;
  boost?: number;
}

export interface ExistsQuery {
  kind: 'exists';
  field: string;
  boost?: number;
}

export interface PrefixQuery {
  kind: 'prefix';
  field: string;
  prefix: string;
  caseInsensitive?: boolean;
  boost?: number;
}

/** `*` matches any run of characters, `?` exactly one; `\` escapes the next character. */
export interface WildcardQuery {
  kind: 'wildcard';
  field: string;
  pattern: string;
  caseInsensitive?: boolean;
  boost?: number;
}

/** Lucene regular expression syntax (anchored at both ends, as in Elasticsearch). */
export interface RegexpQuery {
  kind: 'regexp';
  field: string;
  pattern: string;
  caseInsensitive?: boolean;
  boost?: number;
}

export interface IdsQuery {
  kind: 'ids';
  values: string[];
  boost?: number;
}

export interface BoolQuery {
  kind: 'bool';
  must: Query[];
  should: Query[];
  mustNot: Query[];
  filter: Query[];
  /**
   * How many `should` clauses must match. Undefined means the Elasticsearch default: 1 when the
   * query has no must/filter clause, else 0 (should clauses then only score).
   *
   * A bool with no must, should or filter clause matches every document not excluded by
   * `mustNot` (Elasticsearch adds a match_all to such "pure negative" queries at every level);
   * a bool with no clauses at all matches every document.
   */
  minimumShouldMatch?: number;
  boost?: number;
}

export interface ConstantScoreQuery {
  kind: 'constant_score';
  filter: Query;
  boost?: number;
}

/** The field a bare word targets when a query names none. */
export const DEFAULT_FIELD = '_line';
