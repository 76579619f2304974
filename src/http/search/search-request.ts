/**
 * Converts an Elasticsearch search (URL parameters and JSON body) into the engine's
 * SearchRequest. `q=` wins over a body `query`, as Elasticsearch does. Keys a client may send
 * that change nothing here (highlight, stats, profile, ...) are accepted; unknown keys are a 400.
 */
import { BadRequestError, ParsingError } from '../../common/index.js';
import { parseQueryDsl, parseQueryString, type Query } from '../../query/index.js';
import type { SearchRequest, SortKey } from '../../engine/index.js';
import { boolParam, intParam, stringParam, type QueryParams } from '../query-params.js';
import { parseSourceFilter, type SourceFilter } from './source-filter.js';

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
  trackScores: boolean;
}

const ACCEPTED_BODY_KEYS = new Set([
  'query', 'from', 'size', 'sort', '_source', 'track_total_hits', 'search_after', 'timeout', 'terminate_after',
  'aggs', 'aggregations', 'docvalue_fields', 'stored_fields', 'highlight', 'version', 'seq_no_primary_term',
  'explain', 'stats', 'profile', 'track_scores', 'min_score', 'fields', 'script_fields', 'indices_boost',
  'post_filter', 'ext', 'collapse', 'rescore', 'suggest', 'pit', 'runtime_mappings', 'slice',
]);
const UNSUPPORTED_BODY_KEYS = new Set(['collapse', 'rescore', 'suggest', 'pit', 'runtime_mappings', 'slice', 'script_fields']);

export function toSearchRequest(params: QueryParams, body: Record<string, unknown> | undefined, queryTimeoutMs: number): EsSearch {
  const b = body ?? {};
  for (const key of Object.keys(b)) {
    if (!ACCEPTED_BODY_KEYS.has(key)) throw new ParsingError(`Unknown key for a ${keyKind(b[key])} in [${key}].`);
    if (UNSUPPORTED_BODY_KEYS.has(key)) throw new BadRequestError(`[${key}] is not supported`, 'illegal_argument_exception');
  }

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

  const query = buildQuery(params, b);
  const sortParam = stringParam(params, 'sort');
  const sort = sortParam !== undefined ? parseSortParam(sortParam) : parseSortBody(b.sort);

  const tthParam = stringParam(params, 'track_total_hits');
  const trackTotalHits = parseTrackTotalHits(tthParam !== undefined ? tthParam : b.track_total_hits);

  const searchAfter = b.search_after;
  if (searchAfter !== undefined && !Array.isArray(searchAfter)) {
    throw new ParsingError('[search_after] must be an array', {}, 'x_content_parse_exception');
  }
  if (searchAfter !== undefined && from > 0) {
    throw new BadRequestError('`from` parameter must be set to 0 when `search_after` is used.');
  }
  const terminateAfter = intParam(params, 'terminate_after') ?? intField(b, 'terminate_after');
  const timeoutMs = Math.min(queryTimeoutMs, parseTimeout(stringParam(params, 'timeout') ?? b.timeout) ?? queryTimeoutMs);

  const aggs = b.aggs ?? b.aggregations;
  if (aggs !== undefined && (typeof aggs !== 'object' || aggs === null || Array.isArray(aggs))) {
    throw new ParsingError('[aggs] must be an object', {}, 'x_content_parse_exception');
  }

  const request: SearchRequest = {
    query,
    from,
    size,
    sort,
    trackTotalHits,
    searchAfter: searchAfter as unknown[] | undefined,
    terminateAfter: terminateAfter && terminateAfter > 0 ? terminateAfter : undefined,
    deadlineMs: Date.now() + timeoutMs,
    nowMs: Date.now(),
  };
  return {
    request,
    source: parseSourceFilter(stringParam(params, '_source') ?? b._source, stringParam(params, '_source_includes'), stringParam(params, '_source_excludes')),
    restTotalHitsAsInt: boolParam(params, 'rest_total_hits_as_int') ?? false,
    aggregations: aggs as Record<string, unknown> | undefined,
    typedKeys: boolParam(params, 'typed_keys') ?? false,
    explicitSort: sort.length > 0,
    trackScores: b.track_scores === true,
  };
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
  if (body.post_filter !== undefined) {
    query = { kind: 'bool', must: [query], filter: [parseQueryDsl(body.post_filter)], should: [], mustNot: [] };
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

function parseTrackTotalHits(v: unknown): boolean | number {
  if (v === undefined || v === null || v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 0) {
    throw new BadRequestError(`[track_total_hits] must be a boolean or a non-negative integer, found [${String(v)}]`);
  }
  return n;
}

/** `timeout` values like `30s`, `500ms`, `1m`. */
export function parseTimeout(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'number') return v;
  const m = /^(\d+(?:\.\d+)?)(nanos|micros|ms|s|m|h|d)?$/.exec(String(v).trim());
  if (!m) throw new BadRequestError(`failed to parse setting [timeout] with value [${String(v)}] as a time value`, 'parse_exception');
  const unitMs: Record<string, number> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  return Number(m[1]) * unitMs[m[2] ?? 'ms']!;
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

function parseSortBody(value: unknown): SortKey[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry): SortKey => {
    if (typeof entry === 'string') return { field: entry, order: sortOrder(undefined, entry) };
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry) || Object.keys(entry).length !== 1) {
      throw new ParsingError('[sort] entries must be a field name or an object with one field', {}, 'x_content_parse_exception');
    }
    const [field, spec] = Object.entries(entry as Record<string, unknown>)[0]!;
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
    return { field, order: sortOrder(s.order as string | undefined, field), missing: missing as '_first' | '_last' | undefined };
  });
}

function sortOrder(order: unknown, field: string): 'asc' | 'desc' {
  if (order === undefined || order === null) return field === '_score' ? 'desc' : 'asc';
  if (order === 'asc' || order === 'desc') return order;
  throw new BadRequestError(`[sort] order must be [asc] or [desc], found [${String(order)}]`);
}

function keyKind(v: unknown): string {
  if (Array.isArray(v)) return 'START_ARRAY';
  if (typeof v === 'object' && v !== null) return 'START_OBJECT';
  return 'VALUE';
}
