/**
 * `docvalue_fields` and `fields` of a search: Elasticsearch answers them from doc values and the
 * mapping; here they are read from the `_source` of the returned page only (a page is small),
 * converted by the field's type in the hit's index, and rendered as `fields: {name: [values]}`.
 */
import { BadRequestError, ParsingError, parseDateValue } from '../../common/index.js';
import type { FieldType } from '../../engine/index.js';
import { fieldPattern } from './field-pattern.js';

export interface FieldRequest {
  /** the name as asked, which is also the key in the answer (may hold `*`) */
  field: string;
  format?: string;
  /** set when the name holds a `*` */
  pattern: RegExp | null;
  /** `fields` only: also return values of unmapped fields */
  includeUnmapped: boolean;
}

/** The field type of a field in an index, undefined when the index does not map it. */
export type FieldTypeLookup = (index: string, field: string) => FieldType | undefined;

const KEYWORD_SUFFIX = '.keyword';


/** Reads a `docvalue_fields` or `fields` value: names, or `{field, format}` objects. */
export function parseFieldRequests(value: unknown, key: 'docvalue_fields' | 'fields' | 'stored_fields'): FieldRequest[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value;
  if (!Array.isArray(list)) throw new ParsingError(`[${key}] must be an array`, {}, 'x_content_parse_exception');
  return list.map((entry): FieldRequest => {
    if (typeof entry === 'string') return { field: entry, pattern: fieldPattern(entry), includeUnmapped: false };
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new ParsingError(`[${key}] entries must be a field name or an object`, {}, 'x_content_parse_exception');
    }
    const e = entry as Record<string, unknown>;
    for (const k of Object.keys(e)) {
      if (k !== 'field' && k !== 'format' && !(key === 'fields' && k === 'include_unmapped')) {
        throw new ParsingError(`[${key === 'fields' ? 'field_and_format' : 'docvalues_field'}] unknown field [${k}]`, {}, 'x_content_parse_exception');
      }
    }
    if (typeof e.field !== 'string' || e.field === '') {
      throw new ParsingError(`[${key}] entry requires a [field] name`, {}, 'x_content_parse_exception');
    }
    if (e.format !== undefined && typeof e.format !== 'string') {
      throw new ParsingError(`[${key}] [format] must be a string`, {}, 'x_content_parse_exception');
    }
    const includeUnmapped = e.include_unmapped === true || e.include_unmapped === 'true';
    return { field: e.field, format: e.format as string | undefined, pattern: fieldPattern(e.field), includeUnmapped };
  });
}

/**
 * Elasticsearch refuses doc values of text fields; a name asked for explicitly that is text in
 * one of the searched indexes is a 400, as there. Patterns quietly skip text fields.
 */
export function checkDocvalueFields(requests: readonly FieldRequest[], indices: readonly string[], typeOf: FieldTypeLookup): void {
  for (const r of requests) {
    if (r.pattern !== null) continue;
    for (const index of indices) {
      if (typeOf(index, r.field) === 'text') {
        throw new BadRequestError(
          `Can't load fielddata on [${r.field}] because fielddata is unsupported on fields of type [text]. Use a keyword field instead.`,
        );
      }
    }
  }
}

export type Scalar = string | number | boolean;
/** A hit's `_source` as dotted leaf paths and their non-null scalar values, in source order. */
export type SourceValues = Map<string, Scalar[]>;

/** The values of a stored `_source` text, read once per hit however many options need them. */
export function sourceValues(source: string): SourceValues {
  const flat: SourceValues = new Map();
  flatten(JSON.parse(source) as unknown, '', flat);
  return flat;
}

function flatten(value: unknown, path: string, out: Map<string, Scalar[]>): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const v of value) flatten(v, path, out);
    return;
  }
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) flatten(v, path === '' ? k : `${path}.${k}`, out);
    return;
  }
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return;
  let list = out.get(path);
  if (list === undefined) out.set(path, (list = []));
  list.push(value);
}

function formatDate(ms: number, format: string | undefined): string {
  if (format === 'epoch_millis') return String(ms);
  if (format === 'epoch_second') return String(Math.floor(ms / 1000));
  // every ISO-style format (the default strict_date_optional_time, its _nanos variant, date_time...)
  return new Date(ms).toISOString();
}

function convert(values: readonly Scalar[], type: FieldType | undefined, format: string | undefined): Array<Scalar> {
  const out: Scalar[] = [];
  for (const v of values) {
    switch (type) {
      case 'keyword':
      case 'text':
        out.push(String(v));
        break;
      case 'long':
      case 'double': {
        const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
        if (Number.isFinite(n)) out.push(type === 'long' ? Math.trunc(n) : n);
        break;
      }
      case 'boolean':
        if (v === true || v === 'true') out.push(true);
        else if (v === false || v === 'false') out.push(false);
        break;
      case 'date': {
        const ms = parseDateValue(v);
        if (ms !== null) out.push(formatDate(ms, format));
        break;
      }
      default:
        out.push(v);
    }
  }
  return out;
}

/** Doc values come sorted: numbers and dates ascending, keywords sorted and distinct. */
function docvalueOrder(values: Scalar[], type: FieldType | undefined): Scalar[] {
  if (type === 'keyword') return [...new Set(values as string[])].sort();
  if (type === 'long' || type === 'double') return (values as number[]).sort((a, b) => a - b);
  if (type === 'boolean') return (values as boolean[]).sort((a, b) => Number(a) - Number(b));
  if (type === 'date') return (values as string[]).sort();
  return values;
}

interface Resolved {
  /** the source path the values come from */
  path: string;
  type: FieldType | undefined;
}

/** Which source path a requested name reads: `host.keyword` falls back to a keyword `host`. */
function resolve(index: string, field: string, typeOf: FieldTypeLookup): Resolved {
  const type = typeOf(index, field);
  if (type !== undefined || !field.endsWith(KEYWORD_SUFFIX)) return { path: field, type };
  const parent = field.slice(0, -KEYWORD_SUFFIX.length);
  return typeOf(index, parent) === 'keyword' ? { path: parent, type: 'keyword' } : { path: field, type };
}

/**
 * The `fields` object of one hit as JSON text, or undefined when nothing was asked for or
 * nothing matched (Elasticsearch then leaves `fields` out).
 */
export function renderHitFields(
  values: () => SourceValues,
  index: string,
  docvalueFields: readonly FieldRequest[],
  fetchFields: readonly FieldRequest[],
  typeOf: FieldTypeLookup,
): string | undefined {
  if (docvalueFields.length === 0 && fetchFields.length === 0) return undefined;
  const flat = values();
  const answer: Record<string, Scalar[]> = {};

  const add = (name: string, resolved: Resolved, format: string | undefined, docvalues: boolean) => {
    const raw = flat.get(resolved.path);
    if (raw === undefined || raw.length === 0) return;
    let values = convert(raw, resolved.type, format);
    if (docvalues) values = docvalueOrder(values, resolved.type);
    if (values.length > 0) answer[name] = values;
  };

  for (const r of docvalueFields) {
    if (r.pattern === null) {
      const resolved = resolve(index, r.field, typeOf);
      if (resolved.type !== undefined && resolved.type !== 'text') add(r.field, resolved, r.format, true);
      continue;
    }
    for (const path of flat.keys()) {
      const type = typeOf(index, path);
      if (r.pattern.test(path) && type !== undefined && type !== 'text') add(path, { path, type }, r.format, true);
    }
  }
  for (const r of fetchFields) {
    const names = r.pattern === null ? [r.field] : [...flat.keys()].filter((p) => r.pattern!.test(p));
    for (const name of names) {
      if (name in answer) continue;
      const resolved = resolve(index, name, typeOf);
      if (resolved.type === undefined && !r.includeUnmapped) continue;
      add(name, resolved, r.format, false);
    }
  }
  return Object.keys(answer).length === 0 ? undefined : JSON.stringify(answer);
}
