/**
 * How an aggregation reads a field in one segment: a numeric column (long, double, date,
 * boolean as 1/0, `_ts`, `_lid`) or keyword ordinals (`_index` is one ordinal for every doc).
 * Text fields and `_id` are not aggregatable, as in Elasticsearch. `host.keyword` falls back to
 * the keyword `host` when the segment has no field by that exact name.
 */
import { BadRequestError } from '../../common/errors.js';
import { parseDateMath } from '../../common/date-math.js';
import type { SegmentReader } from '../segment-reader.js';
import { allocate, type Account } from './memory.js';
import type { ValueKind } from './partial.js';
import type { MissingValue } from './spec.js';

export type FieldValues =
  | { kind: 'numeric'; valueKind: ValueKind; values: Float64Array }
  | { kind: 'ordinals'; valueKind: 'string'; ords: Int32Array; terms: readonly string[] }
  /** the segment has no such field */
  | { kind: 'absent' };

const KEYWORD_SUFFIX = '.keyword';

export function resolveField(segment: SegmentReader, field: string): string {
  if (!field.endsWith(KEYWORD_SUFFIX) || segment.fieldType(field) !== undefined) return field;
  const parent = field.slice(0, -KEYWORD_SUFFIX.length);
  return segment.fieldType(parent) === 'keyword' ? parent : field;
}

export function textFieldError(field: string): BadRequestError {
  return new BadRequestError(
    'Text fields are not optimised for operations that require per-document field data like aggregations and sorting, ' +
      'so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true ' +
      `on [${field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
  );
}

/** Values of `field` for the first `limit` docs of the segment. */
export function fieldValues(segment: SegmentReader, index: string, name: string, limit: number, account: Account): FieldValues {
  switch (name) {
    case '_ts':
      return { kind: 'numeric', valueKind: 'date', values: segment.numeric('_ts')! };
    case '_lid':
      return { kind: 'numeric', valueKind: 'long', values: segment.numeric('_lid')! };
    case '_index': {
      // every doc holds the one term: ordinal 0
      const ords = allocate(Int32Array, limit, account, '_index');
      return { kind: 'ordinals', valueKind: 'string', ords, terms: [index] };
    }
    case '_id':
      throw new BadRequestError(
        'Fielddata access on the _id field is disallowed, you can re-enable it by updating the dynamic cluster setting: indices.id_field_data.enabled',
      );
    default:
      break;
  }
  const field = resolveField(segment, name);
  const type = segment.fieldType(field);
  switch (type) {
    case undefined:
      return { kind: 'absent' };
    case 'text':
      throw textFieldError(field);
    case 'keyword': {
      const column = segment.ordinals(field)!;
      return { kind: 'ordinals', valueKind: 'string', ords: column.ords, terms: column.terms };
    }
    default:
      return { kind: 'numeric', valueKind: type, values: segment.numeric(field)! };
  }
}

/** Elasticsearch's name of a value kind in error messages. */
export function typeName(values: FieldValues): string {
  if (values.kind === 'ordinals') return 'keyword';
  if (values.kind === 'absent') return 'unmapped';
  return values.valueKind;
}

export function unsupportedField(field: string, values: FieldValues, agg: string): BadRequestError {
  return new BadRequestError(`Field [${field}] of type [${typeName(values)}] is not supported for aggregation [${agg}]`);
}

/** The `missing` value as a column value of this field (numbers, dates, booleans as 1/0). */
export function numericMissing(missing: MissingValue | undefined, valueKind: ValueKind, field: string, nowMs: number): number | undefined {
  if (missing === undefined) return undefined;
  if (typeof missing === 'number') return missing;
  if (valueKind === 'date') return parseDateMath(missing, { nowMs, roundUp: false });
  if (valueKind === 'boolean') {
    if (missing === 'true') return 1;
    if (missing === 'false') return 0;
  }
  const n = Number(missing);
  if (missing.trim() === '' || !Number.isFinite(n)) {
    throw new BadRequestError(`failed to parse [missing] value [${missing}] for field [${field}] of type [${valueKind}]`);
  }
  return n;
}
