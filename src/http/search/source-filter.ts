/**
 * `_source` filtering: `false` drops it, `includes`/`excludes` keep or drop fields by dotted
 * path with `*` wildcards, as Elasticsearch does. Only the returned page is ever filtered.
 */
import { BadRequestError } from '../../common/index.js';
import { stringParam, type QueryParams } from '../query-params.js';

export type SourceFilter = { enabled: false } | { enabled: true; includes: RegExp[]; excludes: RegExp[] };

export const FULL_SOURCE: SourceFilter = { enabled: true, includes: [], excludes: [] };

function patternsOf(value: unknown, what: string): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  throw new BadRequestError(`[_source] ${what} must be a string or an array of strings`, 'x_content_parse_exception');
}

function toRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\?]/g, '\\$&').replace(/\*/g, '.*');
  // a pattern names a field and everything below it
  return new RegExp(`^${body}(\\..*)?$`);
}

/** Reads `_source` from a body value or the `_source`/`_source_includes`/`_source_excludes` URL parameters. */
export function parseSourceFilter(value: unknown, urlIncludes?: string, urlExcludes?: string): SourceFilter {
  let includes: string[] = [];
  let excludes: string[] = [];
  if (value === false || value === 'false') return { enabled: false };
  if (value === true || value === 'true' || value === undefined || value === null) {
    // keep everything
  } else if (typeof value === 'string' || Array.isArray(value)) {
    includes = patternsOf(value, 'value');
  } else if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    for (const key of Object.keys(v)) {
      if (!['includes', 'include', 'excludes', 'exclude'].includes(key)) {
        throw new BadRequestError(`Unknown key for a START_ARRAY in [_source]: [${key}]`, 'parsing_exception');
      }
    }
    includes = patternsOf(v.includes ?? v.include, 'includes');
    excludes = patternsOf(v.excludes ?? v.exclude, 'excludes');
  } else {
    throw new BadRequestError('[_source] must be a boolean, a string, an array or an object', 'x_content_parse_exception');
  }
  if (urlIncludes) includes.push(...patternsOf(urlIncludes, 'includes'));
  if (urlExcludes) excludes.push(...patternsOf(urlExcludes, 'excludes'));
  return { enabled: true, includes: includes.map(toRegExp), excludes: excludes.map(toRegExp) };
}

/** Applies the filter to one stored source text; returns JSON text, or undefined when disabled. */
export function filterSource(filter: SourceFilter, source: string): string | undefined {
  if (!filter.enabled) return undefined;
  if (filter.includes.length === 0 && filter.excludes.length === 0) return source;
  const doc = JSON.parse(source) as Record<string, unknown>;
  return JSON.stringify(filterObject(doc, '', filter.includes, filter.excludes) ?? {});
}

function filterObject(obj: Record<string, unknown>, prefix: string, includes: RegExp[], excludes: RegExp[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let kept = false;
  for (const [key, value] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (excludes.some((re) => re.test(path))) continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const included = includes.length === 0 || includes.some((re) => re.test(path));
      const inner = filterObject(value as Record<string, unknown>, path, included ? [] : includes, excludes);
      if (inner !== undefined && (included || Object.keys(inner).length > 0)) {
        out[key] = inner;
        kept = true;
      }
      continue;
    }
    if (includes.length === 0 || includes.some((re) => re.test(path))) {
      out[key] = value;
      kept = true;
    }
  }
  return kept || prefix === '' ? out : undefined;
}

/** The source-filter URL parameters: `_source`, `_source_includes`, `_source_excludes` (and the old singular spellings). */
export function urlSourceParams(params: QueryParams): { value?: string; includes?: string; excludes?: string } {
  return {
    value: stringParam(params, '_source'),
    includes: stringParam(params, '_source_includes') ?? stringParam(params, '_source_include'),
    excludes: stringParam(params, '_source_excludes') ?? stringParam(params, '_source_exclude'),
  };
}

/** The filter the URL parameters alone ask for (the document APIs). */
export function urlSourceFilter(params: QueryParams): SourceFilter {
  const { value, includes, excludes } = urlSourceParams(params);
  return parseSourceFilter(value, includes, excludes);
}
