/**
 * Indexes themselves: `PUT /{index}` (settings, mappings and aliases, over the matching
 * templates), `HEAD /{index}`, `GET /{index}`, `DELETE /{index}` (lists and patterns; the data
 * files go with it), `_flush` (the in-memory segment becomes a segment file) and `_refresh`
 * (writes are searchable at once, so there is nothing to do but answer).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { assertNamedIndicesPermitted, permittedIndices, type AccessContext } from '../../auth/index.js';
import { BadRequestError, IndexNotFoundError, validateIndexName } from '../../common/index.js';
import { resolveIndices } from '../../engine/index.js';
import { accessOf } from '../auth-hook.js';
import type { ApiDeps } from '../deps.js';
import { boolParam } from '../query-params.js';
import { jsonObjectBody } from '../request-body.js';
import type { IndexNames } from '../search/target-indices.js';
import { validateAliasName, aliasSpecsOf } from './alias-model.js';
import { addAliases, syncAliases } from './catalog-link.js';
import { ACKNOWLEDGED, aliasesOf, catalogNames, catalogSnapshot, mappingOf, settingsOf, shardsHeader } from './index-views.js';
import { fieldsOfMapping } from './mapping-convert.js';
import { checkKnownSettings, normalizeSettings, renderSettings } from './settings.js';
import { expressionParts, targetIndices, type IndicesRequest } from './targets.js';
import { composeIndex, templatesFor, type IndexRequest } from './template-model.js';

export function registerIndexRoutes(app: FastifyInstance, deps: ApiDeps): void {
  // declared before the GET so that fastify does not derive a HEAD from it
  app.head('/:index', async (request: IndicesRequest, reply: FastifyReply) => reply.code(indexExists(deps.engine, accessOf(request), request.params.index) ? 200 : 404).send());
  app.get('/:index', async (request: IndicesRequest) => getIndexes(deps, request));
  app.put('/:index', async (request: IndicesRequest) => createIndex(deps, request));
  app.delete('/:index', async (request: IndicesRequest) => deleteIndexes(deps, request));

  const flush = (action: 'read' | 'write') => async (request: IndicesRequest) => {
    const names = targetIndices(deps, request, action, request.params.index);
    await deps.engine.flush(names);
    return { _shards: shardsHeader(names.length) };
  };
  app.post('/_flush', flush('write'));
  app.post('/:index/_flush', flush('write'));
  app.get('/_flush', flush('read'));
  app.get('/:index/_flush', flush('read'));

  const refresh = (action: 'read' | 'write') => async (request: IndicesRequest) => {
    const names = targetIndices(deps, request, action, request.params.index);
    return { _shards: shardsHeader(names.length) };
  };
  app.post('/_refresh', refresh('write'));
  app.post('/:index/_refresh', refresh('write'));
  app.get('/_refresh', refresh('read'));
  app.get('/:index/_refresh', refresh('read'));
}

/** `HEAD /{index}`: whether the expression names some index the actor may read. */
export function indexExists(catalog: IndexNames, access: AccessContext, expression: string | undefined): boolean {
  assertNamedIndicesPermitted(access, 'read', expressionParts(expression));
  try {
    const names = resolveIndices(expression, catalog.indexNames(), catalog.aliasMap(), { allowNoIndices: false });
    return permittedIndices(access, 'read', names).length > 0;
  } catch (err) {
    if (err instanceof IndexNotFoundError) return false;
    throw err;
  }
}

async function getIndexes(deps: ApiDeps, request: IndicesRequest): Promise<Record<string, unknown>> {
  const names = targetIndices(deps, request, 'read', request.params.index);
  const snapshot = await catalogSnapshot(deps);
  const flat = boolParam(request.query, 'flat_settings') ?? false;
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const shard = deps.engine.shard(name);
    if (!shard) continue;
    out[name] = { aliases: aliasesOf(name, snapshot), mappings: mappingOf(shard), settings: renderSettings(settingsOf(shard, snapshot), flat) };
  }
  return out;
}

/** The body of `PUT /{index}`: `settings`, `mappings`, `aliases`, nothing else. */
function parseCreateBody(body: Record<string, unknown> | undefined): IndexRequest {
  const parsed: IndexRequest = { settings: {}, fields: [], aliases: [] };
  for (const [key, value] of Object.entries(body ?? {})) {
    if (key === 'settings') checkKnownSettings((parsed.settings = normalizeSettings(value)));
    else if (key === 'mappings') parsed.fields = fieldsOfMapping(value, true);
    else if (key === 'aliases') parsed.aliases = aliasSpecsOf(value);
    else throw new BadRequestError(`unknown key [${key}] for create index`, 'parse_exception');
  }
  return parsed;
}

async function createIndex(deps: ApiDeps, request: IndicesRequest): Promise<Record<string, unknown>> {
  const name = request.params.index!;
  const access = accessOf(request);
  assertNamedIndicesPermitted(access, 'write', [name]);
  validateIndexName(name);
  const given = parseCreateBody(jsonObjectBody(request.body));
  // every index of the catalog: in a cluster, one on another cache node as well
  const existing = given.aliases.length === 0 ? undefined : new Set((await catalogNames(deps)).indexNames());
  for (const { alias } of given.aliases) {
    validateAliasName(alias);
    if (alias === name || existing?.has(alias)) {
      throw new BadRequestError(`Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`, 'invalid_alias_name_exception', {
        index: alias,
      });
    }
    assertNamedIndicesPermitted(access, 'write', [alias]);
  }
  const composed = composeIndex(name, templatesFor(name, await deps.metastore.templates.listTemplates()), given);
  const requested = new Set(given.fields.map(([field]) => field));
  const fromTemplates = new Set(composed.fields.map(([field]) => field).filter((field) => !requested.has(field)));
  await deps.engine.createIndex(name, { settings: composed.settings, fields: composed.fields, optionalFields: fromTemplates });
  try {
    await addAliases(deps, name, composed.aliases);
  } catch (err) {
    // all or nothing, as in Elasticsearch: an index whose aliases failed is not kept
    await deps.engine.deleteIndex(name).catch(() => undefined);
    await syncAliases(deps.engine, deps.metastore);
    throw err;
  }
  return { acknowledged: true, shards_acknowledged: true, index: name };
}

/** Deletion names indexes: a part naming an alias (and no index) is refused. */
export function assertNoAliasNamed(catalog: IndexNames, expression: string | undefined): void {
  for (const part of expressionParts(expression)) {
    if (!part.includes('*') && !catalog.indexNames().includes(part) && catalog.aliasMap().has(part)) {
      throw new BadRequestError(`The provided expression [${part}] matches an alias, specify the corresponding concrete indices instead.`);
    }
  }
}

async function deleteIndexes(deps: ApiDeps, request: IndicesRequest): Promise<Record<string, unknown>> {
  const expression = request.params.index;
  assertNoAliasNamed(deps.engine, expression);
  const names = targetIndices(deps, request, 'delete', expression, { indexesOnly: true });
  for (const name of names) {
    try {
      await deps.engine.deleteIndex(name);
    } catch (err) {
      // deleted meanwhile by another request: the outcome asked for
      if (!(err instanceof IndexNotFoundError)) throw err;
    }
  }
  if (names.length > 0) await syncAliases(deps.engine, deps.metastore);
  return ACKNOWLEDGED;
}
