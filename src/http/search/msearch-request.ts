/**
 * The `_msearch` body: NDJSON pairs of a header line (which indexes, index options, search type)
 * and a search body line. As in Elasticsearch, a line that is not a JSON object or a header key
 * that is not supported fails the whole request with a 400; an empty header line means `{}`;
 * a header left without a body at the end is ignored. What the bodies ask is checked per item.
 */
import { BadRequestError } from '../../common/index.js';
import type { QueryParams } from '../query-params.js';
import { checkExpandWildcards, checkSearchType } from './search-request.js';

export interface MsearchItem {
  /** the header's index expression, when it names one */
  index?: string;
  /** index options and search type from the header, as URL-style parameters */
  options: QueryParams;
  body: Record<string, unknown>;
}

/** Header keys (Elasticsearch also accepts the camelCase spellings) → parameter name, or null when ignored. */
const HEADER_KEYS: Readonly<Record<string, string | null>> = {
  index: 'index',
  indices: 'index',
  type: null,
  types: null,
  search_type: 'search_type',
  searchType: 'search_type',
  ccs_minimize_roundtrips: null,
  request_cache: 'request_cache',
  requestCache: 'request_cache',
  preference: null,
  routing: null,
  allow_partial_search_results: 'allow_partial_search_results',
  expand_wildcards: 'expand_wildcards',
  expandWildcards: 'expand_wildcards',
  ignore_unavailable: 'ignore_unavailable',
  ignoreUnavailable: 'ignore_unavailable',
  allow_no_indices: 'allow_no_indices',
  allowNoIndices: 'allow_no_indices',
  ignore_throttled: 'ignore_throttled',
  ignoreThrottled: 'ignore_throttled',
};

const BOOLEAN_OPTIONS = new Set(['request_cache', 'allow_partial_search_results', 'ignore_unavailable', 'allow_no_indices', 'ignore_throttled']);

/** Splits at newlines keeping empty lines (an empty header is `{}`); a last line without a newline counts. */
function lines(buf: Buffer): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < buf.length) {
    let end = buf.indexOf(0x0a, start);
    if (end === -1) end = buf.length;
    out.push(buf.toString('utf8', start, end).trim());
    start = end + 1;
  }
  return out;
}

function parseObjectLine(text: string, lineNo: number, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new BadRequestError(`failed to parse ${what} on line [${lineNo}]: ${(err as Error).message}`, 'x_content_parse_exception', { line: lineNo });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadRequestError(`${what} on line [${lineNo}] must be a JSON object`, 'x_content_parse_exception', { line: lineNo });
  }
  return value as Record<string, unknown>;
}

function stringList(value: unknown, key: string): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(',');
  throw new BadRequestError(`[${key}] in the metadata section must be a string or an array of strings`);
}

function parseHeader(header: Record<string, unknown>): { index?: string; options: QueryParams } {
  const options: QueryParams = {};
  let index: string | undefined;
  for (const [key, value] of Object.entries(header)) {
    if (!Object.hasOwn(HEADER_KEYS, key)) throw new BadRequestError(`key [${key}] is not supported in the metadata section`);
    const name = HEADER_KEYS[key];
    if (name === null || name === undefined || value === null) continue;
    if (name === 'index') {
      index = stringList(value, key);
      continue;
    }
    const text = name === 'expand_wildcards' ? stringList(value, key) : String(value);
    if (name === 'search_type') checkSearchType(text);
    if (name === 'expand_wildcards') checkExpandWildcards(text);
    if (BOOLEAN_OPTIONS.has(name) && text !== 'true' && text !== 'false') {
      throw new BadRequestError(`Failed to parse value [${text}] as only [true] or [false] are allowed.`);
    }
    options[name] = text;
  }
  return { index, options };
}

export function parseMsearchBody(buf: Buffer): MsearchItem[] {
  const all = lines(buf);
  const items: MsearchItem[] = [];
  let i = 0;
  // Elasticsearch tolerates one empty line before the first header
  if (all.length > 0 && all[0] === '') i = 1;
  for (; i + 1 < all.length; i += 2) {
    const headerText = all[i]!;
    const bodyText = all[i + 1]!;
    const header = headerText === '' ? {} : parseObjectLine(headerText, i + 1, 'msearch header');
    const { index, options } = parseHeader(header);
    const body = bodyText === '' ? {} : parseObjectLine(bodyText, i + 2, 'msearch body');
    items.push({ index, options, body });
  }
  if (items.length === 0) throw new BadRequestError('Validation Failed: 1: no requests added;', 'action_request_validation_exception');
  return items;
}
