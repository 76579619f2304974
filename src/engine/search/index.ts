/**
 * Query execution over segments: per segment the AST is planned against the segment's field
 * types and evaluated to a sorted Uint32Array of doc ids; counts are set lengths; the top
 * `from + size` hits are collected per segment, merged, and only the final page's sources read.
 */

/*
 * Matching, by query kind and the field's type in the segment (a field the segment lacks: no docs;
 * a field name with `*`: every matching field, values that do not fit a field's type ignored):
 * - match: text fields analyze with the field's analyzer (`analyzerFor`) and combine tokens by
 *   operator and minimum_should_match, resolved against the token count (a query token repeated
 *   counts as often as it occurs); no token: no docs, or all with zero_terms_query `all`;
 *   match_bool_prefix expands its last token as a prefix; keyword fields
 *   compare the whole text; long/double/date/boolean parse the text (unparseable: a 400, or no
 *   docs with `lenient`); date values cover what they name (a date-only string the whole day).
 * - phrase / phrase_prefix: token positions, slop as in Lucene's sloppy phrase (a swap costs 2);
 *   the prefix slot expands to at most max_expansions terms. On keyword fields: the whole value.
 * - term / terms: not analyzed; a value that does not fit a numeric, date or boolean field is a 400.
 * - range: numbers, dates (date math; gt/lte round up) and `_ts`/`_lid` on columns; keyword and
 *   text fields compare terms lexicographically.
 * - prefix / wildcard / regexp: term dictionary walks from the pattern's literal prefix, patterns
 *   lowercased on text fields, more than 10,000 terms per segment is a 400 `too_many_clauses`;
 *   on numeric and date fields prefix and wildcard match nothing and regexp is a 400, as in ES.
 * - `_index` matches the target's index name; `_id` compares the 64-bit id column.
 *
 * Scoring is a cheap count, computed only when the sort names `_score`: each matching scoring
 * clause adds its boost (a text match one per matching token; filter and must_not add nothing;
 * constant_score and match_all give their boost). Otherwise hits have a null score and
 * max_score is null, as Elasticsearch reports for field sorts.
 *
 * Sorting: the default is `_ts` desc then `_doc` desc (newest first). Ties on the given keys are
 * broken by doc position (segment order, then doc id) in the direction of the first key. A `_doc`
 * sort value is `segmentOrder * 2^32 + docId`. Segments whose `_ts` range cannot satisfy the
 * query's time bounds are skipped unread (`stats.segmentsSkipped`). Totals are always counted
 * exactly (a set length); a numeric track_total_hits only caps what is reported.
 */
export { executeSearch, matchSegment } from './execute.js';
export { storedDocument, fromStoredSource, type StoredDocument } from './stored-document.js';
export { mergeSearchResults } from './merge-results.js';
export { matchUpperBound, postingsWork } from './match-bound.js';
export type { MatchOptions } from './execute.js';
export { DEFAULT_SORT, SEGMENT_STRIDE } from './sort-keys.js';
export { MAX_EXPANSIONS } from './term-expansion.js';
export { requiredTsInterval, segmentCanMatch } from './time-pruning.js';
export type { TsInterval } from './time-pruning.js';
export type {
  SearchHit,
  SearchRequest,
  SearchResult,
  SearchStats,
  SearchTarget,
  SortKey,
  SortOrder,
} from './types.js';
