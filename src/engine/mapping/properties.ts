/**
 * The Elasticsearch `properties` view of a mapping for `GET /{index}/_mapping`: dotted names
 * become nested objects, in order of first occurrence, at most `maxFields` leaf fields.
 */
import type { FieldInfo } from '../segment-reader.js';

/** Leaf fields `GET /{index}/_mapping` lists at most (since 1.23.1). */
export const MAPPING_RESPONSE_MAX_FIELDS = 1000;

export interface LeafProperty {
  type: string;
  /** multi-fields, by the last part of their names */
  fields?: Record<string, { type: string }>;
}

export interface ObjectProperty {
  properties: Properties;
}

export type Properties = Record<string, LeafProperty | ObjectProperty>;

/**
 * `multiFieldParent` names the field a multi-field belongs to: it is listed under that field's
 * `fields` (`message.raw` → `"message": {"type": "text", "fields": {"raw": {"type": "keyword"}}}`).
 */
export function toProperties(
  fields: readonly FieldInfo[],
  maxFields = MAPPING_RESPONSE_MAX_FIELDS,
  multiFieldParent: (name: string) => string | undefined = () => undefined,
): Properties {
  const root: Properties = {};
  const leaves = new Map<string, LeafProperty>();
  const limit = Math.min(fields.length, maxFields);
  for (let i = 0; i < limit; i++) {
    const { name, type } = fields[i]!;
    const parent = multiFieldParent(name);
    if (parent !== undefined) {
      const leaf = leaves.get(parent);
      if (leaf !== undefined) (leaf.fields ??= {})[name.slice(parent.length + 1)] = { type };
      continue;
    }
    const parts = name.split('.');
    let level = root;
    for (let p = 0; p < parts.length - 1; p++) {
      const key = parts[p]!;
      let node = level[key];
      if (node === undefined || !('properties' in node)) {
        // the mapping never holds a leaf where it holds an object, so `node` is undefined here
        node = { properties: {} };
        level[key] = node;
      }
      level = node.properties;
    }
    const leaf: LeafProperty = { type };
    leaves.set(name, leaf);
    level[parts[parts.length - 1]!] = leaf;
  }
  return root;
}
