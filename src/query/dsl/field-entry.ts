import { missing, multipleFields } from './errors.js';
import { isObject, type JsonObject } from './values.js';

/**
 * The one `"<field>": <value>` entry of a field-level query (`match`, `term`, `prefix`, ...).
 * `topLevel` handles keys that may sit beside the field when they hold a plain value
 * (`{"term": {"status": 500, "boost": 2}}`); an object under such a key is a field of that name.
 */
export function fieldEntry(
  query: string,
  body: JsonObject,
  topLevel: Record<string, (value: unknown) => void> = {},
): { field: string; value: unknown } {
  let entry: { field: string; value: unknown } | undefined;
  for (const [key, value] of Object.entries(body)) {
    const handler = Object.hasOwn(topLevel, key) && !isObject(value) ? topLevel[key] : undefined;
    if (handler) {
      handler(value);
      continue;
    }
    if (entry) throw multipleFields(query, entry.field, key);
    entry = { field: key, value };
  }
  if (!entry) throw missing(query, 'query requires a field and a value');
  return entry;
}
