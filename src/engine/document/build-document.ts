/**
 * Raw JSON object → IndexedDocument: flattens objects to dotted names, splits arrays into
 * values, types new fields through the index mapping and coerces values to their field's type,
 * reads `_ts`, and renders the stored source text.
 */
import { parseDateValue } from '../../common/date-math.js';
import { IndexMapping, METADATA_KEYS, fieldParseError, mapperParsingError, type MappingUpdate, type Scalar } from '../mapping/index.js';
import type { IndexedDocument, IndexedField } from './indexed-document.js';

/**
 * Deepest object nesting a document may have, as Elasticsearch's `index.mapping.depth.limit`
 * counts it: fields of the root object are at depth 1, each inner object adds one.
 */
export const MAX_OBJECT_DEPTH = 20;

export interface DocumentIdentity {
  /** `_id` */
  id: bigint;
  /** `_lid` */
  lid: number;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects the values of each flattened field, in order of first occurrence. */
class FieldCollector {
  readonly values = new Map<string, Scalar[]>();

  constructor(private readonly update: MappingUpdate) {}

  add(path: string, value: unknown, depth: number): void {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      for (const element of value) this.add(path, element, depth);
      return;
    }
    switch (typeof value) {
      case 'string':
      case 'boolean':
        this.push(path, value);
        return;
      case 'number':
        if (!Number.isFinite(value)) throw mapperParsingError(`failed to parse field [${path}]: [${value}] is not a finite number`);
        this.push(path, value);
        return;
      case 'object':
        this.addObject(path, value as Record<string, unknown>, depth + 1);
        return;
      default:
        throw mapperParsingError(`failed to parse field [${path}]: unsupported value of type ${typeof value}`);
    }
  }

  /** `depth` counts inner objects down to and including this one */
  addObject(path: string, object: Record<string, unknown>, depth: number): void {
    if (depth + 1 > MAX_OBJECT_DEPTH) throw mapperParsingError(`Limit of mapping depth [${MAX_OBJECT_DEPTH}] has been exceeded`);
    this.update.enterObject(path, object);
    for (const key of Object.keys(object)) this.add(`${path}.${key}`, object[key], depth);
  }

  private push(path: string, value: Scalar): void {
    this.append(path, this.update.valueFor(path, value));
    // multi-fields index the value as sent, each with its own type
    for (const sub of this.update.multiFields(path)) this.append(sub, this.update.multiFieldValue(sub, value));
  }

  private append(path: string, value: Scalar): void {
    const list = this.values.get(path);
    if (list === undefined) this.values.set(path, [value]);
    else list.push(value);
  }
}

function readTs(value: unknown, receivedTs: number, docId: string): number {
  if (value === undefined || value === null) return receivedTs;
  const ts = typeof value === 'number' || typeof value === 'string' ? parseDateValue(value) : null;
  if (ts === null) throw fieldParseError('_ts', 'date', value, docId);
  return ts;
}

/**
 * Builds the document to index from a parsed write. `raw` must be a JSON object; `_ts` is epoch
 * ms or an ISO 8601 string (default `receivedTs`); `_lid` and `_id` come from `identity`;
 * `_id`/`_index` keys inside the document are dropped. New fields are added to `mapping` only
 * when the whole document is valid. Throws a 400 `mapper_parsing_exception` for a bad document.
 *
 * Building again from `JSON.parse(doc.source)` with the same mapping and identity gives the same
 * document: that is how the write-ahead log is replayed.
 */
export function buildDocument(
  raw: unknown,
  mapping: IndexMapping,
  identity: DocumentIdentity,
  receivedTs: number,
  /** the JSON text `raw` was parsed from, when known: the stored source then keeps it as sent */
  rawText?: string,
): IndexedDocument {
  if (raw === null || raw === undefined) throw mapperParsingError('failed to parse, document is empty');
  if (!isPlainObject(raw)) throw mapperParsingError('failed to parse, document is not an object');
  const docId = String(identity.id);
  const update = mapping.update(docId);
  const collector = new FieldCollector(update);
  const ts = readTs(raw._ts, receivedTs, docId);
  // the stored source keeps the original key order
  const source: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (METADATA_KEYS.has(key)) continue;
    if (key === '_ts') {
      update.valueFor('_ts', ts);
      source._ts = ts;
    } else if (key === '_lid') {
      update.valueFor('_lid', identity.lid);
      source._lid = identity.lid;
    } else {
      const value = raw[key];
      collector.add(key, value, 0);
      if (key === '__proto__') Object.defineProperty(source, key, { value, enumerable: true, writable: true, configurable: true });
      else source[key] = value;
    }
  }
  if (!Object.hasOwn(source, '_ts')) {
    update.valueFor('_ts', ts);
    source._ts = ts;
  }
  if (!Object.hasOwn(source, '_lid')) {
    update.valueFor('_lid', identity.lid);
    source._lid = identity.lid;
  }
  const fields: IndexedField[] = [];
  for (const [name, values] of collector.values) {
    fields.push({ name, type: update.typeOf(name)!, values });
  }
  update.commit();
  const text = (rawText !== undefined ? sourceFromText(rawText, raw, ts, identity.lid) : undefined) ?? JSON.stringify(source);
  return { id: identity.id, lid: identity.lid, ts, source: text, fields };
}

/**
 * The stored source as the client sent it, with `_ts`/`_lid` appended, when that equals what
 * JSON.stringify would give up to white space: no metadata key to drop or rewrite and `_ts`
 * already epoch ms. Saves serializing every document again on the ingest path.
 */
function sourceFromText(text: string, raw: Record<string, unknown>, ts: number, lid: number): string | undefined {
  let hasTs = false;
  for (const key in raw) {
    if (key === '_ts') {
      if (raw._ts !== ts) return undefined;
      hasTs = true;
    } else if (key === '_lid' || key === '__proto__' || METADATA_KEYS.has(key)) {
      return undefined;
    }
  }
  let end = text.length - 1;
  while (end > 0 && text.charCodeAt(end) <= 0x20) end--;
  if (text.charCodeAt(end) !== 0x7d /* } */) return undefined;
  let last = end - 1;
  while (last > 0 && text.charCodeAt(last) <= 0x20) last--;
  // an empty object has no member to follow with a comma
  if (text.charCodeAt(last) === 0x7b /* { */) return undefined;
  const tail = hasTs ? `,"_lid":${lid}}` : `,"_ts":${ts},"_lid":${lid}}`;
  return text.slice(0, last + 1) + tail;
}
