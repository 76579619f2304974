/**
 * Aliases in Elasticsearch form: names (the rules of index names, minus the lowercase one),
 * alias bodies (`filter`, `routing`, `index_routing`, `search_routing`, `is_write_index`) as
 * given in `POST /_aliases`, `PUT /{index}`, templates and `PUT /{index}/_alias/{name}`, and
 * their rendering in `GET /_alias` answers. One routing value is kept for both directions.
 */
import { BadRequestError, SvcError } from '../../common/index.js';
import type { AliasRecord, AliasSpec } from '../../metastore/index.js';
import { isPlainObject } from './settings.js';

const FORBIDDEN = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ',', '#'];

function invalidAlias(name: string, why: string): SvcError {
  return new BadRequestError(`Invalid alias name [${name}], ${why}`, 'invalid_alias_name_exception', { index: name });
}

/** Throws `invalid_alias_name_exception` when `name` may not name an alias. */
export function validateAliasName(name: string): void {
  if (name.length === 0) throw invalidAlias(name, 'alias name is required');
  for (const ch of FORBIDDEN) {
    if (name.includes(ch)) throw invalidAlias(name, `must not contain the following characters [${FORBIDDEN.join(', ')}]`);
  }
  if (/^[-_+]/.test(name)) throw invalidAlias(name, "must not start with '_', '-', or '+'");
  if (name === '.' || name === '..') throw invalidAlias(name, "must not be '.' or '..'");
  if (Buffer.byteLength(name) > 255) throw invalidAlias(name, 'alias name is too long');
}

const BODY_KEYS: ReadonlySet<string> = new Set(['filter', 'routing', 'index_routing', 'search_routing', 'is_write_index', 'is_hidden']);

/** One alias from its name and body (`{}` or null for none). */
export function aliasSpecOf(alias: string, body: unknown): AliasSpec {
  if (body === undefined || body === null) return { alias };
  if (!isPlainObject(body)) throw new BadRequestError(`[aliases] alias [${alias}] must be an object`, 'parse_exception');
  for (const key of Object.keys(body)) {
    if (!BODY_KEYS.has(key)) throw new BadRequestError(`[aliases] unknown field [${key}] in alias [${alias}]`, 'parse_exception');
  }
  return aliasSpecFromFields(alias, body);
}

/** Reads the alias properties of an alias body or of an `add` action (which has more keys). */
export function aliasSpecFromFields(alias: string, body: Record<string, unknown>): AliasSpec {
  const spec: AliasSpec = { alias };
  if (body.filter !== undefined && body.filter !== null) {
    if (!isPlainObject(body.filter)) throw new BadRequestError(`[aliases] filter of alias [${alias}] must be a query object`, 'parse_exception');
    spec.filter = body.filter;
  }
  const routing = body.routing ?? body.index_routing ?? body.search_routing;
  if (routing !== undefined && routing !== null) {
    if (typeof routing !== 'string' && typeof routing !== 'number') throw new BadRequestError(`[aliases] routing of alias [${alias}] must be a string`, 'parse_exception');
    spec.routing = String(routing);
  }
  if (body.is_write_index !== undefined && body.is_write_index !== null) {
    if (typeof body.is_write_index !== 'boolean') throw new BadRequestError(`[aliases] is_write_index of alias [${alias}] must be a boolean`, 'parse_exception');
    spec.isWriteIndex = body.is_write_index;
  }
  return spec;
}

/** The `aliases` section of a create-index request or template: `{"name": {...}, ...}`. */
export function aliasSpecsOf(aliases: unknown): AliasSpec[] {
  if (aliases === undefined || aliases === null) return [];
  if (!isPlainObject(aliases)) throw new BadRequestError('Malformed [aliases] section, should include an inner object', 'parse_exception');
  return Object.entries(aliases).map(([name, body]) => aliasSpecOf(name, body));
}

/** An alias' properties as `GET /_alias` shows them. */
export function renderAlias(record: Pick<AliasRecord, 'filter' | 'routing' | 'isWriteIndex'> | AliasSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (record.filter !== undefined && record.filter !== null) out.filter = record.filter;
  if (record.routing !== undefined && record.routing !== null) {
    out.index_routing = record.routing;
    out.search_routing = record.routing;
  }
  if (record.isWriteIndex !== undefined && record.isWriteIndex !== null) out.is_write_index = record.isWriteIndex;
  return out;
}

