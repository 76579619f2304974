/**
 * Narrowing the `unknown` of a parsed JSON body to the values a query key expects, with the
 * Elasticsearch error naming the query and key when it is something else. Like Elasticsearch,
 * numbers and booleans written as strings are accepted.
 */
import type { RawValue } from '../ast.js';
import { invalidValue, unsupportedKey, wrongType } from './errors.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Calls the handler of every key in order; a key without one is an error. */
export function eachKey(
  query: string,
  body: JsonObject,
  handlers: Record<string, (value: unknown) => void>,
  unknown: (query: string, key: string) => Error = unsupportedKey,
): void {
  for (const [key, value] of Object.entries(body)) {
    const handler = Object.hasOwn(handlers, key) ? handlers[key] : undefined;
    if (!handler) throw unknown(query, key);
    handler(value);
  }
}

export function readString(query: string, key: string, value: unknown): string {
  if (typeof value === 'string') return value;
  throw wrongType(query, key, 'a string', value);
}

export function readNumber(query: string, key: string, value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    if (Number.isFinite(n)) return n;
    throw invalidValue(query, key, value, 'not a number');
  }
  throw wrongType(query, key, 'a number', value);
}

export function readInteger(query: string, key: string, value: unknown): number {
  const n = readNumber(query, key, value);
  if (!Number.isInteger(n)) throw invalidValue(query, key, value, 'not an integer');
  return n;
}

export function readBoolean(query: string, key: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (typeof value === 'string') throw invalidValue(query, key, value, 'not a boolean');
  throw wrongType(query, key, 'a boolean', value);
}

/** A string, number or boolean, kept as written. */
export function readRawValue(query: string, key: string, value: unknown): RawValue {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw wrongType(query, key, 'a string, number or boolean', value);
}

export function readOperator(query: string, key: string, value: unknown): 'or' | 'and' {
  const text = readString(query, key, value).toLowerCase();
  if (text === 'or' || text === 'and') return text;
  throw invalidValue(query, key, value, 'operator must be [or] or [and], not');
}

/** `minimum_should_match` as written: an integer or a spec string, resolved later. */
export function readMinimumShouldMatch(query: string, key: string, value: unknown): string | number {
  if (typeof value === 'number' || typeof value === 'string') return value;
  throw wrongType(query, key, 'an integer or a string', value);
}

/** Lists of strings may also be written as one string (`"fields": "title"`). */
export function readStringList(query: string, key: string, value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.map((v) => readString(query, key, v));
  throw wrongType(query, key, 'a string or an array of strings', value);
}

/** Keys every query accepts: `boost` (kept) and `_name` (named queries: read and ignored). */
export function standardKeys(query: string, setBoost: (boost: number) => void): Record<string, (value: unknown) => void> {
  return {
    boost: (v) => setBoost(readNumber(query, 'boost', v)),
    _name: (v) => void readString(query, '_name', v),
  };
}

/** A key accepted for compatibility whose value is checked but does not change the result. */
export function ignoredString(query: string, key: string): (value: unknown) => void {
  return (v) => void readString(query, key, v);
}

export function ignoredNumber(query: string, key: string): (value: unknown) => void {
  return (v) => void readNumber(query, key, v);
}

export function ignoredBoolean(query: string, key: string): (value: unknown) => void {
  return (v) => void readBoolean(query, key, v);
}
