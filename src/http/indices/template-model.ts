/**
 * Legacy index templates (`_template`): validation of a PUT body as Elasticsearch 7.10 does it,
 * the stored form (settings flattened, mappings without a type wrapper, aliases normalized), the
 * GET view, and the composition of a new index from the templates whose patterns match its
 * name, lowest `order` first, then what the creating request gave, each later layer winning.
 */
import { BadRequestError } from '../../common/index.js';
import { wildcardToRegExp } from '../../engine/index.js';
import type { AliasSpec, TemplateRecord } from '../../metastore/index.js';
import { aliasSpecOf, aliasSpecsOf, renderAlias, validateAliasName } from './alias-model.js';
import { fieldsOfMapping, mergeFieldLists, unwrapMapping, type FieldList } from './mapping-convert.js';
import { FIXED_SETTINGS, checkKnownSettings, isPlainObject, normalizeSettings, renderSettings, withoutNulls, type FlatSettings } from './settings.js';

/** What is stored as the template's body. */
export interface TemplateBody {
  version?: number;
  settings: FlatSettings;
  mappings: Record<string, unknown>;
  aliases: Record<string, Record<string, unknown>>;
}

export interface ParsedTemplate {
  indexPatterns: string[];
  order: number;
  body: TemplateBody;
}

function invalidTemplate(name: string, causes: string[]): BadRequestError {
  const listed = causes.map((c, i) => `${i + 1}: ${c};`).join('');
  return new BadRequestError(`index_template [${name}] invalid, cause [Validation Failed: ${listed}]`, 'invalid_index_template_exception', { name });
}

const PATTERN_FORBIDDEN = ['\\', '/', '?', '"', '<', '>', '|', ' ', ',', '#', ':'];

function validateNames(name: string, patterns: readonly string[]): void {
  const causes: string[] = [];
  if (name.includes(' ')) causes.push('name must not contain a space');
  if (name.includes(',')) causes.push("name must not contain a ','");
  if (name.includes('#')) causes.push("name must not contain a '#'");
  if (name.includes('*')) causes.push("name must not contain a '*'");
  if (name.startsWith('_')) causes.push("name must not start with '_'");
  if (name !== name.toLowerCase()) causes.push('name must be lower cased');
  for (const pattern of patterns) {
    if (pattern.startsWith('_')) causes.push(`index_pattern [${pattern}] must not start with '_'`);
    if (PATTERN_FORBIDDEN.some((ch) => pattern.includes(ch))) {
      causes.push(`index_pattern [${pattern}] must not contain the following characters [${PATTERN_FORBIDDEN.join(', ')}]`);
    }
  }
  if (causes.length > 0) throw invalidTemplate(name, causes);
}

function patternsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  throw new BadRequestError('Malformed [index_patterns] value, should be a string or a list of strings');
}

/** Validates a `PUT /_template/{name}` body; `orderParam` is `?order=` (the body's `order` wins). */
export function parseTemplate(name: string, source: Record<string, unknown>, orderParam: number | undefined): ParsedTemplate {
  let patterns: string[] | undefined;
  let order = orderParam ?? 0;
  const body: TemplateBody = { settings: {}, mappings: {}, aliases: {} };
  for (const [key, value] of Object.entries(source)) {
    switch (key) {
      case 'index_patterns':
        patterns = patternsOf(value);
        break;
      case 'template':
        // the 6.x name of index_patterns, still read by 7.x
        if (typeof value === 'string') patterns = [value];
        break;
      case 'order':
        if (typeof value === 'string' ? !/^-?\d+$/.test(value) : !Number.isInteger(value)) {
          throw new BadRequestError(`Malformed [order] value, should be an integer`);
        }
        order = Number(value);
        break;
      case 'version':
        if (!Number.isInteger(value)) throw new BadRequestError('Malformed [version] value, should be an integer');
        body.version = value as number;
        break;
      case 'settings':
        body.settings = normalizeSettings(value);
        checkKnownSettings(body.settings);
        break;
      case 'mappings': {
        const mapping = unwrapMapping(value);
        // parsed now so that a malformed tree is refused on PUT, not when an index is created
        if (mapping !== undefined) fieldsOfMapping(mapping, false);
        body.mappings = mapping ?? {};
        break;
      }
      case 'aliases':
        for (const spec of aliasSpecsOf(value)) {
          validateAliasName(spec.alias.replaceAll('{index}', 'index'));
          body.aliases[spec.alias] = renderAlias(spec);
        }
        break;
      default:
        throw new BadRequestError(`unknown key [${key}] in the template`, 'parse_exception');
    }
  }
  if (patterns === undefined || patterns.length === 0) {
    throw new BadRequestError('Validation Failed: 1: index patterns are missing;', 'action_request_validation_exception');
  }
  validateNames(name, patterns);
  return { indexPatterns: patterns, order, body };
}

function storedBody(record: TemplateRecord): TemplateBody {
  const body = record.body as Partial<TemplateBody>;
  return {
    version: typeof body.version === 'number' ? body.version : undefined,
    settings: isPlainObject(body.settings) ? (body.settings as FlatSettings) : {},
    mappings: isPlainObject(body.mappings) ? body.mappings : {},
    aliases: isPlainObject(body.aliases) ? (body.aliases as Record<string, Record<string, unknown>>) : {},
  };
}

/** A template as `GET /_template` shows it; `typed` wraps mappings in `_doc` (cluster state). */
export function templateView(record: TemplateRecord, opts: { flatSettings?: boolean; typed?: boolean } = {}): Record<string, unknown> {
  const body = storedBody(record);
  const view: Record<string, unknown> = { order: record.order };
  if (body.version !== undefined) view.version = body.version;
  view.index_patterns = record.indexPatterns;
  view.settings = renderSettings(body.settings, opts.flatSettings ?? false);
  view.mappings = opts.typed && Object.keys(body.mappings).length > 0 ? { _doc: body.mappings } : body.mappings;
  view.aliases = body.aliases;
  return view;
}

/** Templates whose patterns match the index name, in the order they apply (as listed: by order, then name). */
export function templatesFor(index: string, templates: readonly TemplateRecord[]): TemplateRecord[] {
  return templates.filter((t) => t.indexPatterns.some((p) => wildcardToRegExp(p).test(index)));
}

/** What a create-index request gave, already validated. */
export interface IndexRequest {
  settings: FlatSettings;
  fields: FieldList;
  aliases: AliasSpec[];
}

export interface IndexComposition {
  settings: FlatSettings;
  fields: FieldList;
  aliases: AliasSpec[];
}

/** A new index: its matching templates layered by order, then the request on top. */
export function composeIndex(index: string, templates: readonly TemplateRecord[], request?: IndexRequest): IndexComposition {
  const settings: FlatSettings = {};
  const layers: FieldList[] = [];
  const aliases = new Map<string, AliasSpec>();
  for (const template of templates) {
    const body = storedBody(template);
    Object.assign(settings, body.settings);
    layers.push(fieldsOfMapping(body.mappings, false));
    for (const [name, alias] of Object.entries(body.aliases)) {
      const resolved = name.replaceAll('{index}', index);
      aliases.set(resolved, aliasSpecOf(resolved, alias));
    }
  }
  if (request) {
    Object.assign(settings, request.settings);
    layers.push(request.fields);
    for (const spec of request.aliases) aliases.set(spec.alias, spec);
  }
  const kept = withoutNulls(settings);
  for (const key of FIXED_SETTINGS) delete kept[key];
  return { settings: kept, fields: mergeFieldLists(layers), aliases: [...aliases.values()] };
}
