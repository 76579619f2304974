import type { Query, RawValue } from '../ast.js';
import { withBoost } from '../build.js';
import { invalidValue, missing, multipleFields, unsupportedKey, wrongType } from './errors.js';
import { readTimeZone } from './query-string.js';
import { eachKey, isObject, readBoolean, readString, standardKeys, type JsonObject } from './values.js';

const RELATIONS: ReadonlySet<string> = new Set(['intersects', 'contains', 'within']);

/**
 * `{"range": {"field": {"gte": a, "lt": b, "format": ..., "time_zone": ...}}}`. Bounds stay raw
 * (the engine reads them by field type, with date math for dates). Keys apply in order, as in
 * Elasticsearch: `gt`/`gte`/`from` set the lower bound, `lt`/`lte`/`to` the upper, and
 * `include_lower`/`include_upper` their inclusiveness (legacy `from`/`to` default to inclusive).
 * A null bound is open; a range open at both ends means the field has a value (exists).
 */
export function parseRange(body: JsonObject): Query {
  let outerBoost: number | undefined;
  const standard = standardKeys('range', (b) => (outerBoost = b));
  let field: string | undefined;
  let spec: JsonObject | undefined;
  for (const [key, value] of Object.entries(body)) {
    if (isObject(value)) {
      if (field !== undefined) throw multipleFields('range', field, key);
      field = key;
      spec = value;
      continue;
    }
    const handler = Object.hasOwn(standard, key) ? standard[key] : undefined;
    if (!handler) throw unsupportedKey('range', key);
    handler(value);
  }
  if (field === undefined || spec === undefined) throw missing('range', 'query requires a field');

  let from: RawValue | null = null;
  let to: RawValue | null = null;
  let includeLower = true;
  let includeUpper = true;
  let format: string | undefined;
  let timeZone: string | undefined;
  let boost: number | undefined;
  const bound = (key: string, value: unknown): RawValue | null => {
    if (value === null) return null;
    if (typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    throw wrongType('range', key, 'a string, number or null', value);
  };
  eachKey('range', spec, {
    from: (v) => (from = bound('from', v)),
    to: (v) => (to = bound('to', v)),
    gt: (v) => ((from = bound('gt', v)), (includeLower = false)),
    gte: (v) => ((from = bound('gte', v)), (includeLower = true)),
    lt: (v) => ((to = bound('lt', v)), (includeUpper = false)),
    lte: (v) => ((to = bound('lte', v)), (includeUpper = true)),
    include_lower: (v) => (includeLower = readBoolean('range', 'include_lower', v)),
    include_upper: (v) => (includeUpper = readBoolean('range', 'include_upper', v)),
    format: (v) => (format = readString('range', 'format', v)),
    time_zone: (v) => (timeZone = readTimeZone('range', v)),
    relation: (v) => {
      if (!RELATIONS.has(readString('range', 'relation', v).toLowerCase())) {
        throw invalidValue('range', 'relation', v, 'unknown relation');
      }
    },
    ...standardKeys('range', (b) => (boost = b)),
  });

  let q: Query;
  if (from === null && to === null) {
    q = { kind: 'exists', field };
  } else {
    q = { kind: 'range', field };
    if (from !== null) q[includeLower ? 'gte' : 'gt'] = from;
    if (to !== null) q[includeUpper ? 'lte' : 'lt'] = to;
    if (format !== undefined) q.format = format;
    if (timeZone !== undefined) q.timeZone = timeZone;
  }
  return withBoost(withBoost(q, outerBoost), boost);
}
