/**
 * Reading raw query values as the type of the field they target: numbers, booleans, dates
 * (with date math and rounding).
 */
import { BadRequestError } from '../../common/errors.js';
import type { RawValue } from '../../query/index.js';
import { parseDateMath } from '../../common/date-math.js';

export interface DateOptions {
  nowMs: number;
  format?: string;
  timeZone?: string;
}

/** The number a value denotes, or undefined when it is not one. */
export function toNumber(value: RawValue): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return undefined;
  const s = value.trim();
  if (s === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** The boolean a value denotes (true/false, "true"/"false"), or undefined. */
export function toBoolean(value: RawValue): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

export function invalidValue(value: RawValue, field: string, type: string): BadRequestError {
  return new BadRequestError(
    `failed to create query: cannot parse [${String(value)}] as a ${type} value for field [${field}]`,
    'query_shard_exception',
  );
}

/**
 * Epoch ms of a date value. Numbers are epoch milliseconds (seconds with format
 * `epoch_second`). `roundUp` takes the last millisecond of what the value names: the end of the
 * day for a date-only string, the end of the unit for `/d`-style rounding (as `gt` and `lte`
 * bounds do in Elasticsearch).
 */
export function toDate(value: RawValue, opts: DateOptions, roundUp: boolean): number {
  if (typeof value === 'boolean') throw new BadRequestError(`failed to parse date field [${value}]`, 'parse_exception');
  return parseDateMath(value, { ...opts, roundUp });
}
