/**
 * The request bodies Discover sends: the same Query DSL any client sends to `_search`. The query
 * string goes in a `query_string` query and the time range in a `range` filter on `_ts`; hits
 * come with the service's highlight of `_line`.
 */
import { HIGHLIGHT } from './highlight.js';

export interface SearchInput {
  query: string;
  fromMs: number;
  toMs: number;
}

/** The query string and the range on `_ts`; no upper bound when `toMs` is undefined. */
export function searchQuery({ query, fromMs, toMs }: { query: string; fromMs: number; toMs: number | undefined }): Record<string, unknown> {
  const range = { range: { _ts: { gte: fromMs, ...(toMs === undefined ? {} : { lte: toMs }), format: 'epoch_millis' } } };
  const must = query.trim() === '' ? [{ match_all: {} }] : [{ query_string: { query, default_field: '_line' } }];
  return { bool: { must, filter: [range] } };
}

/** First page: the newest hits, the exact count and the histogram over the whole range. */
export function firstPageBody(input: SearchInput, size: number, intervalText: string): Record<string, unknown> {
  return {
    size,
    track_total_hits: true,
    query: searchQuery(input),
    highlight: HIGHLIGHT,
    aggs: {
      over_time: {
        date_histogram: {
          field: '_ts',
          fixed_interval: intervalText,
          min_doc_count: 0,
          extended_bounds: { min: input.fromMs, max: input.toMs },
        },
      },
    },
  };
}

/** The page after the hit whose `sort` values are `after` (newest first, so: older hits). */
export function olderPageBody(input: SearchInput, size: number, after: unknown[]): Record<string, unknown> {
  return { size, track_total_hits: false, query: searchQuery(input), search_after: after, highlight: HIGHLIGHT };
}

/**
 * Live tail: only what is not older than the newest row shown (`sinceMs`), oldest first, so a
 * burst longer than a page is taken in order over the next rounds. Rows of that same millisecond
 * come again and are dropped by the caller.
 */
export function newerBody(query: string, sinceMs: number, size: number): Record<string, unknown> {
  return { size, track_total_hits: false, query: searchQuery({ query, fromMs: sinceMs, toMs: undefined }), sort: [{ _ts: 'asc' }], highlight: HIGHLIGHT };
}

/** Top values of a keyword field among the matches. */
export function topValuesBody(input: SearchInput, field: string, size = 10): Record<string, unknown> {
  return { size: 0, track_total_hits: true, query: searchQuery(input), aggs: { top: { terms: { field, size } } } };
}

/** A query-string clause for `field` equal to `value`, escaped as the syntax requires. */
export function fieldClause(field: string, value: string | number | boolean): string {
  const text = typeof value === 'string' ? `"${value.replace(/["\\]/g, '\\$&')}"` : String(value);
  return `${field.replace(/[\s+\-=&|><!(){}[\]^"~*?:\\/]/g, '\\$&')}:${text}`;
}

/** The query with a filter in or out added; an empty query becomes the clause alone. */
export function addFilter(query: string, clause: string, include: boolean): string {
  const part = include ? clause : `NOT ${clause}`;
  const trimmed = query.trim();
  return trimmed === '' ? part : `(${trimmed}) AND ${part}`;
}
