/**
 * Converts an Elasticsearch search (URL parameters and JSON body) into the engine's
 * SearchRequest plus what the response needs (source filter, fields, highlight, scroll
 * keep-alive). `q=` wins over a body `query`, and URL parameters over the body, as in
 * Elasticsearch. Keys a client may send that change nothing here (stats, profile, ...) are accepted;
 * unknown body keys are a 400.
 */
import { BadRequestError, ParsingError } from '../../common/index.js';
import { parseQueryDsl, parseQueryString, type Query } from '../../query/index.js';
import type { SearchRequest, SortKey } from '../../engine/index.js';
import { boolParam, intParam, stringParam, type QueryParams } from '../query-params.js';
import { parseFieldRequests, type FieldRequest } from './hit-fields.js';
import { parseHighlight, type HighlightSpec } from './highlight/index.js';
import { parseSourceFilter, urlSourceParams, type SourceFilter } from './source-filter.js';
import { parseTimeValue } from './time-value.js';

export const MAX_RESULT_WINDOW = 10_000;

export interface EsSearch {
  request: SearchRequest;
  source: SourceFilter;
  restTotalHitsAsInt: boolean;
  /** body `aggs`/`aggregations`, passed on untouched */
  aggregations?: Record<string, unknown>;
  typedKeys: boolean;
  /** sort values are returned with hits when a sort was asked for */
  explicitSort: boolean;
  /** sort fields given an `unmapped_type`: no error where no index maps them */
  unmappedSortFields: ReadonlySet<string>;
  trackScores: boolean;
  /** `docvalue_fields`: answered from `_source` under `fields` */
  docvalueFields: FieldRequest[];
  /** `fields` (the 7.10 fields API): answered from `_source` under `fields` */
  fetchFields: FieldRequest[];
  /** `highlight`: the query's words tagged in the hits' field values */
  highlight?: HighlightSpec;
  /** `version: true`: every hit says `_version: 1` (documents are never updated) */
  version: boolean;
  /** `scroll=<keep-alive>`: the search opens a scroll context kept this long */
  scrollKeepAliveMs?: number;
  /** the query without `post_filter`: aggregations see every match of it, as in Elasticsearch */
  aggregationQuery: Query;
}

const ACCEPTED_BODY_KEYS = new Set([
  'query', 'from', 'size', 'sort', '_source', 'track_total_hits', 'search_after', 'timeout', 'terminate_after',
  'aggs', 'aggregations', 'docvalue_fields', 'stored_fields', 'highlight', 'version', 'seq_no_primary_term',
  'explain', 'stats', 'profile', 'track_scores', 'min_score', 'fields', 'script_fields', 'indices_boost',
  'post_filter', 'ext', 'collapse', 'rescore', 'suggest', 'pit', 'runtime_mappings', 'slice',
]);
/** Refused when they ask for something; tools send some of them empty (`script_fields: {}`). */
const UNSUPPORTED_BODY_KEYS = new Set(['collapse', 'rescore', 'suggest', 'pit', 'runtime_mappings', 'slice', 'script_fields']);

const SEARCH_TYPES = new Set(['query_then_fetch', 'dfs_query_then_fetch']);
const EXPAND_WILDCARDS = new Set(['open', 'closed', 'hidden', 'none', 'all']);
/** Elasticsearch's `search.max_keep_alive` default */
export const MAX_KEEP_ALIVE_MS = 24 * 3_600_000;

/**
 * Checks the URL parameters that tune execution across shards or clusters (Grafana, Kibana and
 * the official clients send them): accepted when well-formed, and changing nothing on one node.
 */
export function checkUrlOptions(params: QueryParams): void {
  const searchType = stringParam(params, 'search_type');
  if (searchType !== undefined) checkSearchType(searchType);
  for (const name of ['pre_filter_shard_size', 'max_concurrent_shard_requests', 'batched_reduce_size', 'max_concurrent_searches']) {
    const v = intParam(params, name);
    if (v !== undefined && v < 1) throw new BadRequestError(`[${name}] must be a positive integer, found [${v}]`);
  }
  for (const name of ['allow_partial_search_results', 'ccs_minimize_roundtrips', 'request_cache', 'ignore_throttled', 'analyze_wildcard']) {
    boolParam(params, name);
  }
  checkExpandWildcards(stringParam(params, 'expand_wildcards'));
}

export function checkSearchType(value: string): void {
  if (!SEARCH_TYPES.has(value)) throw new BadRequestError(`No search type for [${value}]`);
}

export function checkExpandWildcards(value: unknown): void {
  if (value === undefined || value === null) return;
  const list = Array.isArray(value) ? value : String(value).split(',');
  for (const v of list) {
    const s = String(v).trim();
    if (!EXPAND_WILDCARDS.has(s)) throw new BadRequestError(`No enum constant for expand_wildcards [${s}]: use open, closed, hidden, none or all`);
  }
}

export function toSearchRequest(params: QueryParams, body: Record<string, unknown> | undefined, queryTimeoutMs: number): EsSearch {
  const b = body ?? {};
  for (const key of Object.keys(b)) {
    if (!ACCEPTED_BODY_KEYS.has(key)) throw new ParsingError(`Unknown key for a ${keyKind(b[key])} in [${key}].`);
    if (UNSUPPORTED_BODY_KEYS.has(key) && !isEmpty(b[key])) throw new BadRequestError(`[${key}] is not supported`, 'illegal_argument_exception');
  }
  checkUrlOptions(params);

  const from = intParam(params, 'from') ?? intField(b, 'from') ?? 0;
  const size = intParam(params, 'size') ?? intField(b, 'size') ?? 10;
  if (from < 0) throw new BadRequestError(`[from] parameter cannot be negative, found [${from}]`);
  if (size < 0) throw new BadRequestError(`[size] parameter cannot be negative, found [${size}]`);
  if (from + size > MAX_RESULT_WINDOW) {
    throw new BadRequestError(
      `Result window is too large, from + size must be less than or equal to: [${MAX_RESULT_WINDOW}] but was [${from + size}]. ` +
        'See the scroll api for a more efficient way to request large data sets.',
    );
  }

  const aggregationQuery = buildQuery(params, b);
  const query: Query =
    b.post_filter === undefined
      ? aggregationQuery
      : { kind: 'bool', must: [aggregationQuery], filter: [parseQueryDsl(b.post_filter)], should: [], mustNot: [] };
  const sortParam = stringParam(params, 'sort');
  const parsedSort: ParsedSort = sortParam !== undefined ? { keys: parseSortParam(sortParam), unmapped: new Set() } : parseSortBody(b.sort);
  const sort = parsedSort.keys;

  const tthParam = stringParam(params, 'track_total_hits');
  const tthValue = tthParam !== undefined ? tthParam : b.track_total_hits;
  const explicitTrackTotalHits = parseTrackTotalHits(tthValue);
  const restTotalHitsAsInt = boolParam(params, 'rest_total_hits_as_int') ?? false;
  if (restTotalHitsAsInt && explicitTrackTotalHits !== undefined && explicitTrackTotalHits !== true) {
    throw new BadRequestError(`[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got ${String(tthValue)}`);
  }
  const opensScroll = stringParam(params, 'scroll') !== undefined;
  // as in Elasticsearch: an integer total and a scroll count every hit, other searches up to 10,000
  const trackTotalHits = explicitTrackTotalHits ?? (restTotalHitsAsInt || opensScroll ? true : DEFAULT_TRACK_TOTAL_HITS);

  const searchAfter = b.search_after;
  if (searchAfter !== undefined && !Array.isArray(searchAfter)) {
    throw new ParsingError('[search_after] must be an array', {}, 'x_content_parse_exception');
  }
  if (searchAfter !== undefined && from > 0) {
    throw new BadRequestError('`from` parameter must be set to 0 when `search_after` is used.');
  }
  const terminateAfter = intParam(params, 'terminate_after') ?? intField(b, 'terminate_after');
  if (terminateAfter !== undefined && terminateAfter < 0) throw new BadRequestError('terminateAfter must be > 0');
  const timeoutParam = stringParam(params, 'timeout') ?? b.timeout;
  const timeoutMs = timeoutParam === undefined || timeoutParam === null || timeoutParam === '' ? queryTimeoutMs : parseTimeValue(timeoutParam, 'timeout', false);

  const aggs = b.aggs ?? b.aggregations;
  if (aggs !== undefined && (typeof aggs !== 'object' || aggs === null || Array.isArray(aggs))) {
    throw new ParsingError('[aggs] must be an object', {}, 'x_content_parse_exception');
  }

  const scrollParam = stringParam(params, 'scroll');
  const scrollKeepAliveMs = scrollParam === undefined ? undefined : parseKeepAlive(scrollParam);
  if (scrollKeepAliveMs !== undefined) {
    checkScrollable({ from, size, trackTotalHits, tthValue, searchAfter, requestCache: boolParam(params, 'request_cache') });
  }

  const nowMs = Date.now();
  const request: SearchRequest = {
    query,
    from,
    size,
    sort,
    trackTotalHits,
    searchAfter: searchAfter as unknown[] | undefined,
    terminateAfter: terminateAfter && terminateAfter > 0 ? terminateAfter : undefined,
    deadlineMs: nowMs + Math.min(queryTimeoutMs, timeoutMs),
    nowMs,
  };
  return {
    request,
    source: sourceFilterOf(params, b),
    restTotalHitsAsInt,
    aggregations: aggs as Record<string, unknown> | undefined,
    typedKeys: boolParam(params, 'typed_keys') ?? false,
    explicitSort: sort.length > 0,
    unmappedSortFields: parsedSort.unmapped,
    trackScores: (boolParam(params, 'track_scores') ?? b.track_scores) === true,
    docvalueFields: parseFieldRequests(stringParam(params, 'docvalue_fields') ?? b.docvalue_fields, 'docvalue_fields'),
    fetchFields: parseFieldRequests(b.fields, 'fields'),
    highlight: parseHighlight(b.highlight, aggregationQuery),
    version: (boolParam(params, 'version') ?? b.version) === true,
    scrollKeepAliveMs,
    aggregationQuery,
  };
}

/**
 * `_source` unless stored fields were asked for: Elasticsearch then returns `_source` only when
 * it is asked for too, and `stored_fields: _none_` drops it whatever else is said.
 */
function sourceFilterOf(params: QueryParams, b: Record<string, unknown>): SourceFilter {
  const storedParam = stringParam(params, 'stored_fields');
  const stored = storedParam !== undefined ? storedParam.split(',').map((s) => s.trim()) : b.stored_fields;
  const url = urlSourceParams(params);
  const sourceValue = url.value ?? b._source;
  const { includes, excludes } = url;
  if (stored !== undefined && stored !== null) {
    const names = parseFieldRequests(stored, 'stored_fields').map((r) => r.field);
    if (names.includes('_none_')) {
      if (names.length > 1) throw new BadRequestError('[stored_fields] cannot list [_none_] with other fields');
      return { enabled: false };
    }
    const sourceAsked = sourceValue !== undefined || includes !== undefined || excludes !== undefined || names.includes('_source');
    if (!sourceAsked) return { enabled: false };
  }
  return parseSourceFilter(sourceValue, includes, excludes);
}

/** `scroll=` keep-alive: a time value with its unit, at most a day. */
export function parseKeepAlive(value: unknown): number {
  const ms = parseTimeValue(value, 'scroll', true);
  if (ms > MAX_KEEP_ALIVE_MS) {
    throw new BadRequestError(
      `Keep alive for request (${String(value)}) is too large. It must be less than (1d). ` +
        'This limit can be set by changing the [search.max_keep_alive] cluster level setting.',
    );
  }
  return ms;
}

interface ScrollableCheck {
  from: number;
  size: number;
  trackTotalHits: boolean | number;
  tthValue: unknown;
  searchAfter: unknown;
  requestCache: boolean | undefined;
}

/** The request validation Elasticsearch applies to a search that opens a scroll. */
function checkScrollable(c: ScrollableCheck): void {
  if (c.searchAfter !== undefined) throw new BadRequestError('`search_after` cannot be used in a scroll context.', 'search_context_exception');
  const problems: string[] = [];
  if (c.trackTotalHits !== true) problems.push('disabling [track_total_hits] is not allowed in a scroll context');
  if (c.from > 0) problems.push('using [from] is not allowed in a scroll context');
  if (c.size === 0) problems.push('[size] cannot be [0] in a scroll context');
  if (c.requestCache === true) problems.push('[request_cache] cannot be used in a scroll context');
  if (problems.length > 0) {
    throw new BadRequestError(`Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join(' ')}`, 'action_request_validation_exception');
  }
}

function buildQuery(params: QueryParams, body: Record<string, unknown>): Query {
  const q = stringParam(params, 'q');
  let query: Query;
  if (q !== undefined) {
    const df = stringParam(params, 'df');
    const op = stringParam(params, 'default_operator');
    query = parseQueryString(q, {
      defaultFields: df ? [df] : undefined,
      defaultOperator: parseOperator(op),
      lenient: boolParam(params, 'lenient') ?? false,
    });
  } else if (body.query !== undefined) {
    query = parseQueryDsl(body.query);
  } else {
    query = { kind: 'match_all' };
  }
  return query;
}

function parseOperator(op: string | undefined): 'or' | 'and' | undefined {
  if (op === undefined) return undefined;
  const lower = op.toLowerCase();
  if (lower === 'or' || lower === 'and') return lower;
  throw new BadRequestError(`no enum constant for default_operator [${op}]: use AND or OR`);
}

function intField(body: Record<string, unknown>, key: string): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  throw new ParsingError(`[${key}] must be an integer, found [${JSON.stringify(v)}]`, {}, 'x_content_parse_exception');
}

/** Hits a search counts exactly when it does not say (`track_total_hits`), as in Elasticsearch 7. */
const DEFAULT_TRACK_TOTAL_HITS = 10_000;

/** The `track_total_hits` asked for; undefined when the request does not say. */
function parseTrackTotalHits(v: unknown): boolean | number | undefined {
  if (v === undefined || v === null) return undefined;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : NaN;
  // -1 is Elasticsearch's "accurate"
  if (n === -1) return true;
  if (!Number.isInteger(n) || n < 0) {
    throw new BadRequestError(`[track_total_hits] must be a boolean or a non-negative integer, found [${String(v)}]`);
  }
  return n;
}

/** `timeout` values like `30s`, `500ms`, `1m`; a bare number is milliseconds. */
export function parseTimeout(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  return parseTimeValue(v, 'timeout', false);
}

function parseSortParam(value: string): SortKey[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((part) => {
      const i = part.lastIndexOf(':');
      const field = i > 0 ? part.slice(0, i) : part;
      const order = i > 0 ? part.slice(i + 1) : undefined;
      return { field, order: sortOrder(order, field) };
    });
}

interface ParsedSort {
  keys: SortKey[];
  /** fields whose entry named an `unmapped_type`: where unmapped they sort as missing, not fail */
  unmapped: Set<string>;
}

function parseSortBody(value: unknown): ParsedSort {
  const unmapped = new Set<string>();
  if (value === undefined || value === null) return { keys: [], unmapped };
  const list = Array.isArray(value) ? value : [value];
  const keys = list.flatMap((entry): SortKey[] => {
    if (typeof entry === 'string') return [{ field: entry, order: sortOrder(undefined, entry) }];
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new ParsingError('[sort] entries must be a field name or an object with one field', {}, 'x_content_parse_exception');
    }
    // `{"a": "asc", "b": "desc"}` is a valid (ordered) sort in Elasticsearch too
    return Object.entries(entry as Record<string, unknown>).map(([field, spec]): SortKey => {
      if (typeof spec === 'string') return { field, order: sortOrder(spec, field) };
      if (typeof spec !== 'object' || spec === null) {
        throw new ParsingError(`[sort] options of [${field}] must be a string or an object`, {}, 'x_content_parse_exception');
      }
      const s = spec as Record<string, unknown>;
      for (const key of Object.keys(s)) {
        if (!['order', 'missing', 'unmapped_type', 'mode', 'format', 'numeric_type'].includes(key)) {
          throw new ParsingError(`[field_sort] unknown field [${key}]`, {}, 'x_content_parse_exception');
        }
      }
      const missing = s.missing;
      if (missing !== undefined && missing !== '_first' && missing !== '_last') {
        throw new BadRequestError(`[sort] missing value [${String(missing)}] is not supported: use _first or _last`);
      }
      if (s.unmapped_type !== undefined) unmapped.add(field);
      return { field, order: sortOrder(s.order as string | undefined, field), missing: missing as '_first' | '_last' | undefined };
    });
  });
  return { keys, unmapped };
}

function sortOrder(order: unknown, field: string): 'asc' | 'desc' {
  if (order === undefined || order === null) return field === '_score' ? 'desc' : 'asc';
  if (order === 'asc' || order === 'desc') return order;
  throw new BadRequestError(`[sort] order must be [asc] or [desc], found [${String(order)}]`);
}

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

function keyKind(v: unknown): string {
  if (Array.isArray(v)) return 'START_ARRAY';
  if (typeof v === 'object' && v !== null) return 'START_OBJECT';
  return 'VALUE';
}
