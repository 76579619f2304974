/**
 * Elasticsearch mappings → the engine's field types. A mapping is a `properties` tree: objects
 * nest, dotted names are paths, and each leaf's Elasticsearch type maps to one of ours
 * (integer → long, float → double, ip → keyword, ...). In a request a type we cannot index is a
 * 400; in a template it is skipped, so that the large templates of Beats and Logstash load.
 * Layers (templates by order, then the request) merge by field name, the later winning.
 * Multi-fields (`"fields": {"raw": {"type": "keyword"}}` on a leaf) become fields of their own
 * (`message.raw`) that name their parent; deeper multi-fields are not read.
 */
import { BadRequestError } from '../../common/index.js';
import type { FieldType, MappingEntry } from '../../engine/index.js';
import { isPlainObject } from './settings.js';

/** Fields in declaration order; a multi-field names its parent field third. */
export type FieldList = MappingEntry[];

/** Elasticsearch field types we index, and the engine type each becomes. */
const TYPE_MAP: ReadonlyMap<string, FieldType> = new Map<string, FieldType>([
  ['text', 'text'],
  ['match_only_text', 'text'],
  ['keyword', 'keyword'],
  ['constant_keyword', 'keyword'],
  ['wildcard', 'keyword'],
  ['ip', 'keyword'],
  ['version', 'keyword'],
  ['long', 'long'],
  ['integer', 'long'],
  ['short', 'long'],
  ['byte', 'long'],
  ['unsigned_long', 'long'],
  ['double', 'double'],
  ['float', 'double'],
  ['half_float', 'double'],
  ['scaled_float', 'double'],
  ['boolean', 'boolean'],
  ['date', 'date'],
  ['date_nanos', 'date'],
]);

const OBJECT_TYPES: ReadonlySet<string> = new Set(['object', 'nested']);

/** Root mapping keys Elasticsearch 7.10 accepts; all but `properties` change nothing here. */
const ROOT_KEYS: ReadonlySet<string> = new Set([
  'properties',
  'dynamic',
  'dynamic_templates',
  'dynamic_date_formats',
  'date_detection',
  'numeric_detection',
  'enabled',
  '_source',
  '_meta',
  '_routing',
  '_field_names',
  '_size',
  'runtime',
]);

function mapperParsing(reason: string): BadRequestError {
  return new BadRequestError(reason, 'mapper_parsing_exception');
}

/**
 * The mapping object of a request or template, without a legacy type wrapper
 * (`{"_doc": {"properties": ...}}` → `{"properties": ...}`); undefined when absent or empty.
 */
export function unwrapMapping(mappings: unknown): Record<string, unknown> | undefined {
  if (mappings === undefined || mappings === null) return undefined;
  if (!isPlainObject(mappings)) throw mapperParsing('Failed to parse mapping: mappings must be an object');
  const keys = Object.keys(mappings);
  if (keys.length === 0) return undefined;
  if (keys.length === 1 && !ROOT_KEYS.has(keys[0]!)) {
    const inner = mappings[keys[0]!];
    if (isPlainObject(inner)) return inner;
  }
  return mappings;
}

/**
 * The leaf fields of a mapping, in the order they appear. `strict` (requests): unknown root
 * keys and types we cannot index are 400s; otherwise (templates) they are skipped.
 */
export function fieldsOfMapping(mappings: unknown, strict: boolean): FieldList {
  const mapping = unwrapMapping(mappings);
  if (mapping === undefined) return [];
  if (strict) {
    const unknown = Object.keys(mapping).filter((k) => !ROOT_KEYS.has(k));
    if (unknown.length > 0) {
      const listed = unknown.map((k) => `${k} : ${JSON.stringify(mapping[k])}`).join(', ');
      throw mapperParsing(`Root mapping definition has unsupported parameters:  [${listed}]`);
    }
  }
  const fields: FieldList = [];
  const properties = mapping.properties;
  if (properties !== undefined) walk(properties, '', strict, fields);
  return fields;
}

function walk(properties: unknown, prefix: string, strict: boolean, out: FieldList): void {
  if (!isPlainObject(properties)) throw mapperParsing(`Expected map for property [properties] on field [${prefix.slice(0, -1) || '_doc'}]`);
  for (const [key, definition] of Object.entries(properties)) {
    const name = prefix + key;
    if (!isPlainObject(definition)) throw mapperParsing(`Expected map for property [fields] on field [${name}] but got a ${typeof definition}`);
    const type = definition.type;
    if (type !== undefined && typeof type !== 'string') throw mapperParsing(`No type specified for field [${name}]`);
    if (type === undefined || OBJECT_TYPES.has(type)) {
      if (definition.properties !== undefined) walk(definition.properties, `${name}.`, strict, out);
      continue;
    }
    const ours = TYPE_MAP.get(type);
    if (ours === undefined) {
      if (strict) throw mapperParsing(`No handler for type [${type}] declared on field [${name}]`);
      continue;
    }
    out.push([name, ours]);
    if (definition.fields !== undefined) walkMultiFields(definition.fields, name, strict, out);
  }
}

function walkMultiFields(fields: unknown, parent: string, strict: boolean, out: FieldList): void {
  if (!isPlainObject(fields)) throw mapperParsing(`Expected map for property [fields] on field [${parent}]`);
  for (const [key, definition] of Object.entries(fields)) {
    const name = `${parent}.${key}`;
    if (!isPlainObject(definition)) throw mapperParsing(`Expected map for property [fields] on field [${name}] but got a ${typeof definition}`);
    const type = definition.type;
    if (typeof type !== 'string') throw mapperParsing(`No type specified for field [${key}]`);
    const ours = TYPE_MAP.get(type);
    if (ours !== undefined) out.push([name, ours, parent]);
    else if (strict) throw mapperParsing(`No handler for type [${type}] declared on field [${key}]`);
  }
}

/** The dotted prefixes of a field name: `a.b.c` → `a`, `a.b`. */
function parentsOf(name: string): string[] {
  const parents: string[] = [];
  for (let i = name.indexOf('.'); i !== -1; i = name.indexOf('.', i + 1)) parents.push(name.slice(0, i));
  return parents;
}

/**
 * Merges field lists, later lists winning: a field keeps the place where it first appeared and
 * takes its last type; an earlier field that clashes with a later one (a leaf where the later
 * list has an object, or the reverse) is dropped.
 */
export function mergeFieldLists(layers: readonly FieldList[]): FieldList {
  const merged = new Map<string, MappingEntry>();
  const objectPaths = new Set<string>();
  for (const layer of layers) {
    for (const entry of layer) {
      const name = entry[0];
      // a multi-field's own parent is a leaf, not an object
      const parents = parentsOf(entry[2] ?? name);
      for (const parent of parents) {
        merged.delete(parent);
        objectPaths.add(parent);
      }
      if (objectPaths.has(name)) {
        for (const existing of [...merged.keys()]) if (existing.startsWith(`${name}.`)) merged.delete(existing);
        objectPaths.delete(name);
      }
      merged.set(name, entry);
    }
  }
  // a multi-field whose parent a later layer replaced by an object goes with it
  return [...merged.values()].filter((entry) => entry[2] === undefined || merged.has(entry[2]));
}
