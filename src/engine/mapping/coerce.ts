/**
 * Dynamic typing of a first-seen value and coercion of values into a field's type, as
 * Elasticsearch does with its default `coerce: true`.
 */
import { parseDateValue } from '../../common/date-math.js';
import { BadRequestError } from '../../common/errors.js';
import type { FieldType } from '../segment-reader.js';

/** A JSON scalar as found in a document (objects are flattened, arrays split, before this). */
export type Scalar = string | number | boolean;

const LONG_LIMIT = 2 ** 63;

/** Type a field gets from the first value it is seen with (strings are keywords, never dates). */
export function dynamicType(value: Scalar): FieldType {
  if (typeof value === 'string') return 'keyword';
  if (typeof value === 'boolean') return 'boolean';
  return Number.isInteger(value) && Math.abs(value) < LONG_LIMIT ? 'long' : 'double';
}

export function mapperParsingError(reason: string): BadRequestError {
  return new BadRequestError(reason, 'mapper_parsing_exception');
}

/** The ES preview of a value in a parse failure message. */
function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 100)}...` : text;
}

export function fieldParseError(field: string, type: FieldType, value: unknown, docId?: string): BadRequestError {
  const where = docId === undefined ? '' : ` in document with id '${docId}'`;
  return mapperParsingError(`failed to parse field [${field}] of type [${type}]${where}. Preview of field's value: '${preview(value)}'`);
}

function toNumber(value: Scalar): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const text = value.trim();
    // Number('') is 0 and Number('0x10') is 16: accept plain decimal notation only
    if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) return NaN;
    return Number(text);
  }
  return NaN;
}

/**
 * The value as indexed in a field of `type`: strings for text and keyword, numbers for long,
 * double and date (epoch ms), booleans for boolean. Throws a 400 `mapper_parsing_exception`
 * naming the field and value when it does not fit.
 */
export function coerceValue(field: string, type: FieldType, value: Scalar, docId?: string): Scalar {
  switch (type) {
    case 'text':
    case 'keyword':
      return typeof value === 'string' ? value : String(value);
    case 'long': {
      const n = toNumber(value);
      // a fraction is truncated, as ES does for long fields with coerce
      if (!Number.isFinite(n) || Math.abs(n) >= LONG_LIMIT) throw fieldParseError(field, type, value, docId);
      return Math.trunc(n);
    }
    case 'double': {
      const n = toNumber(value);
      if (!Number.isFinite(n)) throw fieldParseError(field, type, value, docId);
      return n;
    }
    case 'boolean':
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      throw fieldParseError(field, type, value, docId);
    case 'date': {
      if (typeof value === 'boolean') throw fieldParseError(field, type, value, docId);
      const ms = parseDateValue(value);
      if (ms === null) throw fieldParseError(field, type, value, docId);
      return ms;
    }
  }
}
