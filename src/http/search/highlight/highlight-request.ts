/**
 * Reads the `highlight` object of a search body: the fields to highlight (names or `*` patterns,
 * as an object or as a list of one-key objects) and the options, global or per field (a field's
 * own value wins). The query whose words are tagged is the search's `query` (not `post_filter`),
 * or a `highlight_query`. Options that choose among Elasticsearch's highlighter implementations
 * or their boundary scanners are accepted and change nothing: there is one highlighter here.
 */
import { BadRequestError, ParsingError } from '../../../common/index.js';
import { parseQueryDsl, type Query } from '../../../query/index.js';
import { fieldPattern } from '../field-pattern.js';
import { highlightClauses, type HighlightClause } from './query-terms.js';

export interface HighlightField {
  /** the name as asked, which may hold `*` */
  name: string;
  pattern: RegExp | null;
  preTag: string;
  postTag: string;
  fragmentSize: number;
  numberOfFragments: number;
  noMatchSize: number;
  requireFieldMatch: boolean;
  html: boolean;
  clauses: HighlightClause[];
}

export interface HighlightSpec {
  fields: HighlightField[];
}

const DEFAULT_FRAGMENT_SIZE = 100;
const DEFAULT_NUMBER_OF_FRAGMENTS = 5;
const STYLED_PRE_TAG = '<em class="hlt">';
/** accepted, no effect: they tune Elasticsearch's highlighter implementations */
const IGNORED = new Set([
  'type', 'boundary_chars', 'boundary_max_scan', 'boundary_scanner', 'boundary_scanner_locale', 'fragmenter', 'fragment_offset',
  'matched_fields', 'order', 'phrase_limit', 'max_analyzed_offset', 'force_source', 'highlight_filter', 'analyzer',
]);
const OPTIONS = new Set([
  'pre_tags', 'post_tags', 'tags_schema', 'fragment_size', 'number_of_fragments', 'no_match_size', 'require_field_match', 'encoder',
  'highlight_query', ...IGNORED,
]);

type Json = Record<string, unknown>;

function unknownField(where: string, key: string): ParsingError {
  return new ParsingError(`[${where}] unknown field [${key}]`, {}, 'x_content_parse_exception');
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function tags(v: unknown, key: string): string {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length === 0 || typeof list[0] !== 'string') {
    throw new ParsingError(`[highlight] [${key}] must be a list of strings`, {}, 'x_content_parse_exception');
  }
  // one highlighter, one tag: Elasticsearch's unified highlighter uses the first tag too
  return list[0];
}

function integer(v: unknown, key: string): number {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new ParsingError(`[highlight] [${key}] must be an integer`, {}, 'x_content_parse_exception');
  return n;
}

function bool(v: unknown, key: string): boolean {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw new ParsingError(`[highlight] [${key}] must be a boolean`, {}, 'x_content_parse_exception');
}

interface Options {
  preTag?: string;
  postTag?: string;
  fragmentSize?: number;
  numberOfFragments?: number;
  noMatchSize?: number;
  requireFieldMatch?: boolean;
  html?: boolean;
  query?: Query;
}

function readOptions(o: Json, where: string): Options {
  const out: Options = {};
  for (const [key, v] of Object.entries(o)) {
    if (key === 'fields' && where === 'highlight') continue;
    if (!OPTIONS.has(key)) throw unknownField(where, key);
    switch (key) {
      case 'pre_tags':
        out.preTag = tags(v, key);
        break;
      case 'post_tags':
        out.postTag = tags(v, key);
        break;
      case 'tags_schema':
        if (v !== 'styled') throw new BadRequestError(`Unknown tag schema [${String(v)}]`);
        out.preTag ??= STYLED_PRE_TAG;
        break;
      case 'fragment_size':
        out.fragmentSize = integer(v, key);
        break;
      case 'number_of_fragments':
        out.numberOfFragments = integer(v, key);
        if (out.numberOfFragments < 0) throw new BadRequestError(`[number_of_fragments] must be non-negative, found [${out.numberOfFragments}]`);
        break;
      case 'no_match_size':
        out.noMatchSize = integer(v, key);
        break;
      case 'require_field_match':
        out.requireFieldMatch = bool(v, key);
        break;
      case 'encoder':
        if (v !== 'html' && v !== 'default') throw new BadRequestError(`Unknown encoder [${String(v)}]: use default or html`);
        out.html = v === 'html';
        break;
      case 'highlight_query':
        out.query = parseQueryDsl(v);
        break;
    }
  }
  return out;
}

/** `fields` as `{name: options}` or `[{name: options}, …]`, in the order given. */
function fieldEntries(v: unknown): Array<[string, Json]> {
  const entries: Array<[string, unknown]> = Array.isArray(v) ? v.flatMap((e) => (isObject(e) ? Object.entries(e) : [['', e]])) : isObject(v) ? Object.entries(v) : [];
  if (!Array.isArray(v) && !isObject(v)) throw new ParsingError('[highlight] [fields] must be an object or an array', {}, 'x_content_parse_exception');
  return entries.map(([name, options]) => {
    if (name === '' || !isObject(options)) throw new ParsingError('[highlight] [fields] entries must be objects named by a field', {}, 'x_content_parse_exception');
    return [name, options];
  });
}

/** The highlight of a search body, or undefined when it asks for none. */
export function parseHighlight(value: unknown, query: Query): HighlightSpec | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new ParsingError('[highlight] must be an object', {}, 'x_content_parse_exception');
  const global = readOptions(value, 'highlight');
  if (value.fields === undefined) throw new BadRequestError('[highlight] requires [fields]', 'x_content_parse_exception');
  const queryClauses = highlightClauses(global.query ?? query);
  const fields = fieldEntries(value.fields).map(([name, options]): HighlightField => {
    const own = readOptions(options, 'highlight_field');
    const preTag = own.preTag ?? global.preTag ?? '<em>';
    const postTag = own.postTag ?? global.postTag ?? '</em>';
    return {
      name,
      pattern: fieldPattern(name),
      preTag,
      postTag,
      fragmentSize: own.fragmentSize ?? global.fragmentSize ?? DEFAULT_FRAGMENT_SIZE,
      numberOfFragments: own.numberOfFragments ?? global.numberOfFragments ?? DEFAULT_NUMBER_OF_FRAGMENTS,
      noMatchSize: own.noMatchSize ?? global.noMatchSize ?? 0,
      requireFieldMatch: own.requireFieldMatch ?? global.requireFieldMatch ?? true,
      html: own.html ?? global.html ?? false,
      clauses: own.query !== undefined ? highlightClauses(own.query) : queryClauses,
    };
  });
  return fields.length === 0 ? undefined : { fields };
}
