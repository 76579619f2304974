import { missing } from './errors.js';
import { fieldEntry } from './field-entry.js';
import { eachKey, isObject, readBoolean, readString, standardKeys, type JsonObject } from './values.js';

export interface PatternQueryParts {
  field: string;
  value: string;
  caseInsensitive: boolean;
  boost?: number;
}

/**
 * The shared shape of `prefix`, `wildcard` and `regexp`: `{"field": "value"}` or
 * `{"field": {"value": ..., "case_insensitive": ..., "boost": ..., ...}}`, where `extra` lists
 * each kind's own keys (`wildcard` also takes its value under `wildcard`).
 */
export function parsePatternQuery(
  query: string,
  body: JsonObject,
  valueKeys: readonly string[],
  extra: Record<string, (value: unknown) => void>,
): PatternQueryParts {
  let outerBoost: number | undefined;
  const { field, value } = fieldEntry(query, body, standardKeys(query, (b) => (outerBoost = b)));
  const parts: PatternQueryParts = { field, value: '', caseInsensitive: false };
  if (!isObject(value)) {
    parts.value = readString(query, field, value);
  } else {
    let found: string | undefined;
    const handlers: Record<string, (value: unknown) => void> = {
      case_insensitive: (v) => (parts.caseInsensitive = readBoolean(query, 'case_insensitive', v)),
      rewrite: (v) => void readString(query, 'rewrite', v),
      ...extra,
      ...standardKeys(query, (b) => (parts.boost = (parts.boost ?? 1) * b)),
    };
    for (const key of valueKeys) handlers[key] = (v) => (found = readString(query, key, v));
    eachKey(query, value, handlers);
    if (found === undefined) throw missing(query, 'query requires a [value]');
    parts.value = found;
  }
  if (outerBoost !== undefined) parts.boost = (parts.boost ?? 1) * outerBoost;
  return parts;
}
