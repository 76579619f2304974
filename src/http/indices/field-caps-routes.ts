/**
 * `GET|POST /_field_caps`, `GET|POST /{index}/_field_caps` (Kibana's index patterns, Grafana's
 * field lists): for each field whose name matches `fields` (a comma list or a body list, `*`
 * wildcards), its type in each readable index with `searchable` and `aggregatable`, merged across
 * indexes as Elasticsearch 7.10 does: one entry per type, naming its `indices` only when the
 * field has several types; parents of dotted names as `object`; `include_unmapped=true` adds an
 * `unmapped` entry for the indexes without the field. The metadata fields Kibana reads (`_id`,
 * `_index`, `_source`, `_type`) are listed as Elasticsearch lists them.
 */
import type { FastifyInstance } from 'fastify';
import { BadRequestError, ParsingError } from '../../common/index.js';
import type { FieldType } from '../../engine/index.js';
import type { ApiDeps } from '../deps.js';
import { boolParam, stringParam } from '../query-params.js';
import { jsonObjectBody } from '../request-body.js';
import { fieldPattern } from '../search/field-pattern.js';
import { checkExpandWildcards } from '../search/search-request.js';
import { targetIndices, type IndicesRequest } from './targets.js';

export interface Caps {
  type: string;
  searchable: boolean;
  aggregatable: boolean;
}

/** metadata fields every index has, as Elasticsearch 7.10 reports them */
const METADATA: ReadonlyArray<[string, Caps]> = [
  ['_id', { type: '_id', searchable: true, aggregatable: true }],
  ['_index', { type: '_index', searchable: true, aggregatable: true }],
  ['_source', { type: '_source', searchable: false, aggregatable: false }],
  ['_type', { type: '_type', searchable: true, aggregatable: true }],
];

/** Text fields are searched by word and cannot be aggregated (no fielddata); every other type can. */
function capsOf(type: FieldType | 'object'): Caps {
  if (type === 'object') return { type, searchable: false, aggregatable: false };
  return { type, searchable: true, aggregatable: type !== 'text' };
}

/** Every field of an index with its capabilities, object parents of dotted names included. */
function indexFields(deps: ApiDeps, index: string): Map<string, Caps> {
  const out = new Map<string, Caps>();
  for (const [name, caps] of METADATA) out.set(name, caps);
  const mapping = deps.engine.shard(index)?.mapping;
  for (const { name, type } of mapping?.fields() ?? []) {
    out.set(name, capsOf(type));
    // a multi-field's parent is its field, listed with its own type
    if (mapping!.multiFieldParent(name) !== undefined) continue;
    for (let dot = name.indexOf('.'); dot > 0; dot = name.indexOf('.', dot + 1)) {
      const parent = name.slice(0, dot);
      if (!out.has(parent)) out.set(parent, capsOf('object'));
    }
  }
  return out;
}

export function requestedFields(request: IndicesRequest): string[] {
  const body = jsonObjectBody(request.body);
  for (const key of Object.keys(body ?? {})) {
    // `index_filter` and `runtime_mappings` narrow or add to the answer in Elasticsearch; not offered here
    if (key !== 'fields') throw new ParsingError(`request does not support [${key}]`, {}, 'parsing_exception');
  }
  const param = stringParam(request.query, 'fields');
  const fromBody = body?.fields;
  const list = param !== undefined ? param.split(',') : typeof fromBody === 'string' ? fromBody.split(',') : Array.isArray(fromBody) ? fromBody.map(String) : [];
  const fields = list.map((f) => f.trim()).filter((f) => f.length > 0);
  if (fields.length === 0) throw new BadRequestError('Validation Failed: 1: no fields specified;', 'action_request_validation_exception');
  return fields;
}

/** field → type → the indexes having the field with that type, in the order of `indices` */
export type FieldCapsByField = ReadonlyMap<string, ReadonlyMap<string, { caps: Caps; indices: readonly string[] }>>;

/** The answer: one entry per type, naming its `indices` only when the field has several types (or is unmapped in some). */
export function renderFieldCaps(indices: string[], byField: FieldCapsByField, includeUnmapped: boolean): { indices: string[]; fields: Record<string, unknown> } {
  const fields: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const [field, types] of byField) {
    const out: Record<string, Record<string, unknown>> = {};
    const mappedIn = [...types.values()].reduce((n, t) => n + t.indices.length, 0);
    const unmapped = includeUnmapped && mappedIn < indices.length ? indices.filter((i) => ![...types.values()].some((t) => t.indices.includes(i))) : [];
    const several = types.size + (unmapped.length > 0 ? 1 : 0) > 1;
    for (const [type, { caps, indices: having }] of types) {
      out[type] = { type, searchable: caps.searchable, aggregatable: caps.aggregatable, ...(several ? { indices: having } : {}) };
    }
    if (unmapped.length > 0) out.unmapped = { type: 'unmapped', searchable: false, aggregatable: false, indices: unmapped };
    fields[field] = out;
  }
  return { indices, fields };
}

export function registerFieldCapsRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const fieldCaps = async (request: IndicesRequest) => {
    const asked = requestedFields(request);
    checkExpandWildcards(stringParam(request.query, 'expand_wildcards'));
    const includeUnmapped = boolParam(request.query, 'include_unmapped') ?? false;
    const indices = targetIndices(deps, request, 'read', request.params.index);
    const matchers = asked.map((name) => ({ name, pattern: fieldPattern(name) }));
    const wanted = (field: string) => matchers.some((m) => (m.pattern === null ? m.name === field : m.pattern.test(field)));

    // field → type → indexes having it with that type
    const byField = new Map<string, Map<string, { caps: Caps; indices: string[] }>>();
    for (const index of indices) {
      for (const [field, caps] of indexFields(deps, index)) {
        if (!wanted(field)) continue;
        let types = byField.get(field);
        if (types === undefined) byField.set(field, (types = new Map()));
        const entry = types.get(caps.type) ?? { caps, indices: [] };
        entry.indices.push(index);
        types.set(caps.type, entry);
      }
    }

    return renderFieldCaps(indices, byField, includeUnmapped);
  };
  for (const path of ['/_field_caps', '/:index/_field_caps']) {
    app.get(path, fieldCaps);
    app.post(path, fieldCaps);
  }
}
