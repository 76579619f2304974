/**
 * Readers for aggregation options with Elasticsearch's errors: each option of an aggregation is
 * read by name, an unknown option is a 400 naming it, and numbers may come as numeric strings
 * (Grafana sends `"size": "10"` and `"percents": ["95"]`).
 */
import { BadRequestError, ParsingError } from '../../common/index.js';

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function invalid(agg: string, key: string, v: unknown, what: string): ParsingError {
  return new ParsingError(`[${agg}] failed to parse field [${key}]: expected ${what}, found [${JSON.stringify(v)}]`, {}, 'x_content_parse_exception');
}

export function numberOf(agg: string, key: string, v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw invalid(agg, key, v, 'a number');
}

export function intOf(agg: string, key: string, v: unknown): number {
  const n = numberOf(agg, key, v);
  if (!Number.isInteger(n)) throw invalid(agg, key, v, 'an integer');
  return n;
}

export function stringOf(agg: string, key: string, v: unknown): string {
  if (typeof v === 'string') return v;
  throw invalid(agg, key, v, 'a string');
}

export function boolOf(agg: string, key: string, v: unknown): boolean {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw invalid(agg, key, v, 'a boolean');
}

export function objectOf(agg: string, key: string, v: unknown): Json {
  if (isObject(v)) return v;
  throw invalid(agg, key, v, 'an object');
}

export function missingOf(agg: string, v: unknown): number | string {
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  throw invalid(agg, 'missing', v, 'a number or a string');
}

/** Options that Elasticsearch accepts and that change nothing here. */
const IGNORED = new Set(['execution_hint', 'collect_mode', 'value_type', 'rehash', 'method']);

/**
 * Calls the handler of each key of an aggregation body; `script` is a 400 (not supported),
 * keys without a handler are a 400 as in Elasticsearch.
 */
export function eachOption(agg: string, body: Json, handlers: Record<string, (v: unknown) => void>): void {
  for (const [key, value] of Object.entries(body)) {
    const handler = handlers[key];
    if (handler !== undefined) {
      handler(value);
      continue;
    }
    if (IGNORED.has(key)) continue;
    if (key === 'script') throw new BadRequestError(`[script] is not supported in aggregation [${agg}]`);
    throw new ParsingError(`[${agg}] unknown field [${key}]`, {}, 'x_content_parse_exception');
  }
}

const UNIT_MS: Record<string, number> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A time value like `30s`, `1.5h`, `-1d` in ms; undefined when it is not one. */
export function timeValueMs(text: string): number | undefined {
  const m = /^([+-]?\d+(?:\.\d+)?)(nanos|micros|ms|s|m|h|d)$/.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}
