/**
 * Aliases: `POST /_aliases` (several add/remove actions, applied all or none), `GET|HEAD
 * /_alias[/{aliases}]`, `/{index}/_alias[/{aliases}]`, `/{index}/_aliases`, `/_all/_alias`,
 * and `PUT|POST|DELETE /{index}/_alias/{name}`. Each change reloads the engine's alias table, so
 * searches and bulk writes see it at once. Answers list only indexes the actor may read.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { assertNamedIndicesPermitted } from '../../auth/index.js';
import { wildcardToRegExp } from '../../engine/index.js';
import { accessOf } from '../auth-hook.js';
import type { ApiDeps } from '../deps.js';
import { jsonObjectBody } from '../request-body.js';
import { parseAliasActions } from './alias-actions.js';
import { aliasSpecOf, renderAlias, validateAliasName } from './alias-model.js';
import { syncAliases } from './catalog-link.js';
import { ACKNOWLEDGED, catalogNames } from './index-views.js';
import { expressionParts, resolveTargets, type IndicesRequest } from './targets.js';

export function registerAliasRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.post('/_aliases', async (request: IndicesRequest) => {
    const catalog = await catalogNames(deps);
    const actions = parseAliasActions(jsonObjectBody(request.body), accessOf(request), {
      indexNames: catalog.indexNames(),
      aliases: catalog.aliasMap(),
    });
    await deps.metastore.aliases.setAliases(actions);
    await syncAliases(deps.engine, deps.metastore);
    return ACKNOWLEDGED;
  });

  const get = async (request: IndicesRequest, reply: FastifyReply) => {
    const { status, body } = await getAliases(deps, request);
    return reply.code(status).send(body);
  };
  for (const path of ['/_alias', '/_alias/:aliases', '/_all/_alias', '/_all/_aliases', '/:index/_alias', '/:index/_aliases', '/:index/_alias/:aliases']) {
    app.get(path, get);
  }

  const put = async (request: IndicesRequest) => {
    const alias = request.params.aliases!;
    validateAliasName(alias);
    assertNamedIndicesPermitted(accessOf(request), 'write', [alias]);
    const indexes = resolveTargets(await catalogNames(deps), accessOf(request), request.query, 'write', request.params.index);
    const spec = aliasSpecOf(alias, jsonObjectBody(request.body) ?? {});
    await deps.metastore.aliases.setAliases(indexes.map((index) => ({ type: 'add' as const, index, ...spec })));
    await syncAliases(deps.engine, deps.metastore);
    return ACKNOWLEDGED;
  };
  const remove = async (request: IndicesRequest) => {
    const catalog = await catalogNames(deps);
    const indexes = resolveTargets(catalog, accessOf(request), request.query, 'write', request.params.index);
    const patterns = expressionParts(request.params.aliases);
    const access = accessOf(request);
    assertNamedIndicesPermitted(access, 'write', patterns);
    const actions: Array<{ type: 'remove'; index: string; alias: string; mustExist: boolean }> = [];
    for (const pattern of patterns) {
      if (!pattern.includes('*') && pattern !== '_all') {
        for (const index of indexes) actions.push({ type: 'remove', index, alias: pattern, mustExist: true });
        continue;
      }
      const re = wildcardToRegExp(pattern === '_all' ? '*' : pattern);
      for (const [alias, targets] of catalog.aliasMap()) {
        if (!re.test(alias) || !access.can('write', alias)) continue;
        for (const index of indexes) if (targets.includes(index)) actions.push({ type: 'remove', index, alias, mustExist: false });
      }
    }
    await deps.metastore.aliases.setAliases(actions);
    await syncAliases(deps.engine, deps.metastore);
    return ACKNOWLEDGED;
  };
  for (const path of ['/:index/_alias/:aliases', '/:index/_aliases/:aliases']) {
    app.put(path, put);
    app.post(path, put);
    app.delete(path, remove);
  }
}

interface AliasAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * `{"<index>": {"aliases": {"<alias>": {...}}}}` for the readable indexes asked about. Without
 * alias names every such index is listed, with `{}` when it has none; with names, only indexes
 * that have a matching alias, and a concrete name that matches nothing makes the answer a 404
 * with `"error": "alias [x] missing"`, as in Elasticsearch.
 */
async function getAliases(deps: ApiDeps, request: IndicesRequest): Promise<AliasAnswer> {
  const patterns = expressionParts(request.params.aliases);
  assertNamedIndicesPermitted(accessOf(request), 'read', patterns.filter((p) => p !== '_all'));
  const indexes = resolveTargets(await catalogNames(deps), accessOf(request), request.query, 'read', request.params.index);
  const matchers = patterns.filter((p) => p !== '_all' && p !== '*').map((p) => wildcardToRegExp(p));
  const readable = new Set(indexes);
  const rows = (await deps.metastore.aliases.listAliases()).filter((r) => readable.has(r.index) && (matchers.length === 0 || matchers.some((m) => m.test(r.alias))));

  const body: Record<string, unknown> = {};
  if (matchers.length === 0) for (const index of indexes) body[index] = { aliases: {} };
  for (const row of rows) {
    const entry = (body[row.index] ??= { aliases: {} }) as { aliases: Record<string, unknown> };
    entry.aliases[row.alias] = renderAlias(row);
  }
  const found = new Set(rows.map((r) => r.alias));
  const missing = patterns.filter((p) => !p.includes('*') && p !== '_all' && !found.has(p));
  if (missing.length === 0) return { status: 200, body };
  const error = missing.length === 1 ? `alias [${missing[0]}] missing` : `aliases [${missing.join(',')}] missing`;
  return { status: 404, body: { error, status: 404, ...body } };
}
