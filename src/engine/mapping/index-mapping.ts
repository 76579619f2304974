/**
 * The field types of one index: fixed on first sight, listed in order of first occurrence.
 * Changes go through a `MappingUpdate` that checks everything first and applies all or nothing,
 * so a document that fails to parse leaves no field behind. A declared field may have
 * multi-fields (`message.raw` of `message`): fields of their own that index the parent's values
 * with another type; documents never hold them directly.
 */
import { BadRequestError, CorruptionError } from '../../common/errors.js';
import type { FieldInfo, FieldType } from '../segment-reader.js';
import { coerceValue, dynamicType, fieldParseError, mapperParsingError, type Scalar } from './coerce.js';

/**
 * Most distinct fields an index may have. Elasticsearch's `index.mapping.total_fields.limit`
 * is 1,000 and counts object fields too; logs are wide, so this counts leaf fields only and
 * allows ten times as many.
 */
export const MAX_FIELDS = 10_000;

/** Fields whose type is fixed by the service whatever the documents say. */
export const BUILTIN_FIELDS: ReadonlyMap<string, FieldType> = new Map<string, FieldType>([
  ['_line', 'text'],
  ['_ts', 'date'],
  ['_lid', 'long'],
]);

/** Keys of a document that are request metadata, never fields. */
export const METADATA_KEYS: ReadonlySet<string> = new Set(['_id', '_index', '_version']);

const FIELD_TYPES: ReadonlySet<string> = new Set(['text', 'keyword', 'long', 'double', 'boolean', 'date']);

export function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && FIELD_TYPES.has(value);
}

/** The dotted prefixes of a field name: `a.b.c` → `a`, `a.b`. */
function parentsOf(name: string): string[] {
  const parents: string[] = [];
  for (let i = name.indexOf('.'); i !== -1; i = name.indexOf('.', i + 1)) parents.push(name.slice(0, i));
  return parents;
}

/** Why a field name cannot be used, or null when it can. */
export function fieldNameProblem(name: string): string | null {
  if (name.length === 0) return 'field name cannot be an empty string';
  if (name.trim().length === 0) return `field name cannot contain only whitespace: ['${name}']`;
  if (name.startsWith('.') || name.endsWith('.') || name.includes('..')) {
    return `object field starting or ending with a [.] makes object resolution ambiguous: [${name}]`;
  }
  return null;
}

/** `[name, type]`, or `[name, type, parent]` for a multi-field of `parent`. */
export type MappingEntry = [string, FieldType] | [string, FieldType, string];

export interface MappingJson {
  fields: MappingEntry[];
}

const NO_SUBFIELDS: readonly string[] = [];

export class IndexMapping {
  private readonly types = new Map<string, FieldType>();
  /** dotted prefixes of field names: paths that are objects and cannot hold a value */
  private readonly objects = new Set<string>();
  /** multi-field → the field whose values it indexes */
  private readonly parents = new Map<string, string>();
  /** field → its multi-fields, in order of declaration */
  private readonly subfields = new Map<string, string[]>();
  private changes = 0;
  private fieldList: FieldInfo[] | null = null;

  /** Bumped by every change: persist the mapping when it differs from the last saved one. */
  get version(): number {
    return this.changes;
  }

  get size(): number {
    return this.types.size;
  }

  /** The field's type; built-in fields (`_line`, `_ts`, `_lid`) have theirs before first sight. */
  fieldType(name: string): FieldType | undefined {
    return this.types.get(name) ?? BUILTIN_FIELDS.get(name);
  }

  /** The field's type if the mapping holds it (seen in a document or declared). */
  mappedType(name: string): FieldType | undefined {
    return this.types.get(name);
  }

  /** Fields in order of first occurrence. */
  fields(): readonly FieldInfo[] {
    if (this.fieldList === null) this.fieldList = Array.from(this.types, ([name, type]) => ({ name, type }));
    return this.fieldList;
  }

  isObject(path: string): boolean {
    return this.objects.has(path);
  }

  /** The field whose values multi-field `name` indexes, or undefined for an ordinary field. */
  multiFieldParent(name: string): string | undefined {
    return this.parents.get(name);
  }

  /** The multi-fields of field `name` (none for most fields). */
  multiFields(name: string): readonly string[] {
    return this.subfields.get(name) ?? NO_SUBFIELDS;
  }

  /** Whether any field has multi-fields: documents of other indexes skip looking. */
  get hasMultiFields(): boolean {
    return this.subfields.size > 0;
  }

  /** Starts a change; nothing is applied until `commit()`. `docId` names the document in errors. */
  update(docId?: string): MappingUpdate {
    return new MappingUpdate(this, docId);
  }

  /**
   * Declares a field's type explicitly (`PUT /{index}/_mapping`). Returns whether the mapping
   * changed; throws a 400 `illegal_argument_exception` if the field has another type.
   */
  declare(name: string, type: FieldType, parent?: string): boolean {
    const update = this.update();
    update.declare(name, type, parent);
    return update.commit();
  }

  toJSON(): MappingJson {
    return {
      fields: Array.from(this.types, ([name, type]): MappingEntry => {
        const parent = this.parents.get(name);
        return parent === undefined ? [name, type] : [name, type, parent];
      }),
    };
  }

  static fromJSON(json: unknown): IndexMapping {
    const fields = (json as { fields?: unknown } | null)?.fields;
    if (!Array.isArray(fields)) throw new CorruptionError('mapping', 'expected an object with a fields array');
    const mapping = new IndexMapping();
    for (const entry of fields) {
      const parent: unknown = Array.isArray(entry) ? entry[2] : undefined;
      if (
        !Array.isArray(entry) ||
        (entry.length !== 2 && entry.length !== 3) ||
        typeof entry[0] !== 'string' ||
        !isFieldType(entry[1]) ||
        (entry.length === 3 && (typeof parent !== 'string' || mapping.mappedType(parent) === undefined))
      ) {
        throw new CorruptionError('mapping', `bad field entry ${JSON.stringify(entry)}`);
      }
      mapping.apply(entry[0], entry[1], parent as string | undefined);
    }
    return mapping;
  }

  /** @internal used by MappingUpdate.commit */
  apply(name: string, type: FieldType, multiFieldOf?: string): void {
    this.types.set(name, type);
    if (multiFieldOf === undefined) {
      for (const parent of parentsOf(name)) this.objects.add(parent);
    } else {
      this.parents.set(name, multiFieldOf);
      const list = this.subfields.get(multiFieldOf);
      if (list === undefined) this.subfields.set(multiFieldOf, [name]);
      else list.push(name);
    }
    this.fieldList = null;
  }

  /** @internal used by MappingUpdate.commit */
  bumpVersion(): void {
    this.changes++;
  }
}

/** A pending change to a mapping: new fields are checked as they come and applied together. */
export class MappingUpdate {
  private readonly added = new Map<string, FieldType>();
  private readonly addedObjects = new Set<string>();
  /** multi-fields this update adds → their parents */
  private readonly addedParents = new Map<string, string>();

  constructor(
    private readonly mapping: IndexMapping,
    private readonly docId?: string,
  ) {}

  /** Fields this update would add, in order. */
  get newFields(): ReadonlyMap<string, FieldType> {
    return this.added;
  }

  /** The type a field has in the mapping or in this update. */
  typeOf(name: string): FieldType | undefined {
    return this.mapping.mappedType(name) ?? this.added.get(name);
  }

  /** The type a field has or, for a built-in field not seen yet, will have. */
  private expected(name: string): FieldType | undefined {
    return this.typeOf(name) ?? BUILTIN_FIELDS.get(name);
  }

  /**
   * A value found in a document for field `name`, coerced to the field's type; a new field gets
   * its built-in or dynamic type, registered in this update. Throws a 400
   * `mapper_parsing_exception` when the value does not fit or the path is an object.
   */
  valueFor(name: string, value: Scalar): Scalar {
    let type = this.typeOf(name);
    const parent = this.parentOf(name);
    if (parent !== undefined) {
      // Elasticsearch reads `message.raw` in a document as an object path, never as the multi-field
      throw mapperParsingError(
        `Could not dynamically add mapping for field [${name}]. Existing mapping for [${parent}] must be of type object but found [${this.typeOf(parent)}].`,
      );
    }
    if (type === undefined) {
      type = BUILTIN_FIELDS.get(name) ?? dynamicType(value);
      this.addLeaf(name, type);
    }
    return coerceValue(name, type, value, this.docId);
  }

  /** The value of field `parent` as its multi-field `name` indexes it (coerced to that field's type). */
  multiFieldValue(name: string, value: Scalar): Scalar {
    return coerceValue(name, this.typeOf(name)!, value, this.docId);
  }

  /** The multi-fields of `name`, as mapped or declared in this update. */
  multiFields(name: string): readonly string[] {
    const mapped = this.mapping.multiFields(name);
    if (this.addedParents.size === 0) return mapped;
    const added = [...this.addedParents].filter(([, parent]) => parent === name).map(([child]) => child);
    return added.length === 0 ? mapped : [...mapped, ...added];
  }

  private parentOf(name: string): string | undefined {
    return this.mapping.multiFieldParent(name) ?? this.addedParents.get(name);
  }

  /** Checks that a document may hold an object at `path` (it is not a field with a value). */
  enterObject(path: string, value: unknown): void {
    const problem = fieldNameProblem(path);
    if (problem !== null) throw mapperParsingError(problem);
    const leaf = this.expected(path);
    if (leaf !== undefined) throw fieldParseError(path, leaf, value, this.docId);
  }

  /**
   * Declares an explicit type, or with `parent` a multi-field of that (already declared) field;
   * throws a 400 `illegal_argument_exception` on a conflict.
   */
  declare(name: string, type: FieldType, parent?: string): void {
    const problem = fieldNameProblem(name);
    if (problem !== null) throw new BadRequestError(problem);
    if (METADATA_KEYS.has(name)) {
      throw new BadRequestError(`Field [${name}] is a metadata field and cannot be added inside a document`);
    }
    const existing = this.expected(name);
    if (existing !== undefined && existing !== type) {
      throw new BadRequestError(`mapper [${name}] cannot be changed from type [${existing}] to [${type}]`);
    }
    if (parent !== undefined) {
      this.declareMultiField(name, type, parent, existing !== undefined);
      return;
    }
    if (this.parentOf(name) !== undefined) {
      throw new BadRequestError(`Field [${name}] is defined more than once as a multi-field and a field`);
    }
    if (this.typeOf(name) !== undefined) return;
    if (this.mapping.isObject(name) || this.addedObjects.has(name)) {
      throw new BadRequestError(`can't merge a non object mapping [${name}] with an object mapping`);
    }
    for (const parent of parentsOf(name)) {
      if (this.expected(parent) !== undefined) {
        throw new BadRequestError(`can't merge a non object mapping [${parent}] with an object mapping`);
      }
    }
    this.register(name, type);
  }

  private declareMultiField(name: string, type: FieldType, parent: string, exists: boolean): void {
    if (this.typeOf(parent) === undefined || this.parentOf(parent) !== undefined || !name.startsWith(`${parent}.`)) {
      throw new BadRequestError(`multi-field [${name}] needs its field [${parent}] declared first`);
    }
    if (exists) {
      if (this.parentOf(name) === parent) return;
      throw new BadRequestError(`Field [${name}] is defined more than once as a multi-field and a field`);
    }
    if (this.mapping.isObject(name) || this.addedObjects.has(name)) {
      throw new BadRequestError(`can't merge a non object mapping [${name}] with an object mapping`);
    }
    this.added.set(name, type);
    this.addedParents.set(name, parent);
  }

  /** Applies the new fields; returns whether anything changed. Throws (and applies nothing) over the field limit. */
  commit(): boolean {
    if (this.added.size === 0) return false;
    if (this.mapping.size + this.added.size > MAX_FIELDS) {
      throw new BadRequestError(`Limit of total fields [${MAX_FIELDS}] has been exceeded`);
    }
    for (const [name, type] of this.added) this.mapping.apply(name, type, this.addedParents.get(name));
    this.mapping.bumpVersion();
    this.added.clear();
    this.addedObjects.clear();
    this.addedParents.clear();
    return true;
  }

  private addLeaf(name: string, type: FieldType): void {
    const problem = fieldNameProblem(name);
    if (problem !== null) throw mapperParsingError(problem);
    if (this.mapping.isObject(name) || this.addedObjects.has(name)) {
      throw mapperParsingError(`object mapping for [${name}] tried to parse field [${name}] as object, but found a concrete value`);
    }
    for (const parent of parentsOf(name)) {
      const leaf = this.expected(parent);
      if (leaf !== undefined) throw fieldParseError(parent, leaf, { [name.slice(parent.length + 1)]: '...' }, this.docId);
    }
    this.register(name, type);
  }

  private register(name: string, type: FieldType): void {
    this.added.set(name, type);
    for (const parent of parentsOf(name)) this.addedObjects.add(parent);
  }
}
