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

/**
 * The preview of a value in a parse failure message, as Elasticsearch (Java) prints it: strings
 * as they are, objects as `{a=1, b=x}`, arrays as `[1, 2]`.
 */
function preview(value: unknown): string {
  const text = javaText(value);
  return text.length > 100 ? `${text.slice(0, 100)}...` : text;
}

function javaText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(javaText).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}=${javaText(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

/** An error nested in another, rendered as its `caused_by`. */
export interface ErrorCause {
  type: string;
  reason: string;
  caused_by?: ErrorCause;
}

/** Why a value did not fit a field of `type`, worded as Elasticsearch's field mappers word it. */
function parseCause(type: FieldType, value: unknown): ErrorCause {
  if (typeof value === 'object' && value !== null) {
    const token = Array.isArray(value) ? 'START_ARRAY' : 'START_OBJECT';
    if (type === 'text' || type === 'keyword') return { type: 'illegal_state_exception', reason: `Can't get text on a ${token}` };
    return { type: 'illegal_argument_exception', reason: `Current token (${token}) not a value of type [${type}]` };
  }
  const text = String(value);
  switch (type) {
    case 'long':
      if (typeof value === 'number' || Number.isFinite(Number(text.trim()))) {
        return { type: 'illegal_argument_exception', reason: `Value [${text}] is out of range for a long` };
      }
      return { type: 'illegal_argument_exception', reason: `For input string: "${text}"` };
    case 'double':
      return { type: 'number_format_exception', reason: `For input string: "${text}"` };
    case 'boolean':
      return { type: 'illegal_argument_exception', reason: `Failed to parse value [${text}] as only [true] or [false] are allowed.` };
    case 'date':
      return {
        type: 'illegal_argument_exception',
        reason: `failed to parse date field [${text}] with format [strict_date_optional_time||epoch_millis]`,
        caused_by: { type: 'date_time_parse_exception', reason: 'Failed to parse with all enclosed parsers' },
      };
    default:
      return { type: 'illegal_argument_exception', reason: `For input string: "${text}"` };
  }
}

/**
 * The 400 `mapper_parsing_exception` for a value that does not fit field `field` of `type`,
 * with its cause; `value` is the scalar, object or array found in the document.
 */
export function fieldParseError(field: string, type: FieldType, value: unknown, docId?: string): BadRequestError {
  const where = docId === undefined ? '' : ` in document with id '${docId}'`;
  return new BadRequestError(`failed to parse field [${field}] of type [${type}]${where}. Preview of field's value: '${preview(value)}'`, 'mapper_parsing_exception', {
    caused_by: parseCause(type, value),
  });
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
