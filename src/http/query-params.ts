/** Typed readers for URL query parameters, failing with Elasticsearch-style 400s. */
import { BadRequestError } from '../common/index.js';

export type QueryParams = Record<string, string | string[] | undefined>;

function single(params: QueryParams, name: string): string | undefined {
  const v = params[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

export function stringParam(params: QueryParams, name: string): string | undefined {
  return single(params, name);
}

export function intParam(params: QueryParams, name: string): number | undefined {
  const v = single(params, name);
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw new BadRequestError(`Failed to parse int parameter [${name}] with value [${v}]`, 'number_format_exception');
  return Number(v);
}

/** `?pretty`, `?v` and friends: present without a value means true. */
export function boolParam(params: QueryParams, name: string): boolean | undefined {
  const v = single(params, name);
  if (v === undefined) return undefined;
  if (v === '' || v === 'true') return true;
  if (v === 'false') return false;
  throw new BadRequestError(`Failed to parse value [${v}] as only [true] or [false] are allowed.`, 'illegal_argument_exception');
}
