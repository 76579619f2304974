/**
 * `POST /_internal/search`: this cache node's part of a search the api role spreads over the
 * cache nodes (cluster/search-parts.ts). The api role resolved the indexes and checked the
 * caller's access; the body names the indexes this node answers for, and the search as the
 * client sent it, parsed here again with the same code.
 */
import type { FastifyInstance } from 'fastify';
import { targetOrder, type SearchPartRequest, type SearchPartResponse } from '../../cluster/index.js';
import type { SearchTarget } from '../../engine/index.js';
import type { ApiDeps } from '../deps.js';
import { jsonObjectBody } from '../request-body.js';
import { toSearchRequest } from '../search/search-request.js';
import { runSearchPart } from '../search/search-scope.js';

export type SearchPartDeps = Pick<ApiDeps, 'engine' | 'queryPool' | 'metrics' | 'config'>;

export function registerSearchPartRoute(app: FastifyInstance, deps: SearchPartDeps): void {
  app.post('/_internal/search', async (request) => {
    const part = jsonObjectBody(request.body) as unknown as SearchPartRequest;
    return searchPart(deps, part);
  });
}

async function searchPart(deps: SearchPartDeps, part: SearchPartRequest): Promise<SearchPartResponse> {
  const { engine } = deps;
  await engine.openIndexes(part.held);
  const search = toSearchRequest(part.params, part.body, deps.config.queryTimeoutMs);
  search.request.nowMs = part.nowMs;
  const held = new Set(part.held);
  const targets: SearchTarget[] = [];
  part.indices.forEach((index, rank) => {
    if (!held.has(index)) return;
    engine.requireShard(index).searchTargets().forEach((t, i) => {
      targets.push({ ...t, order: targetOrder(rank, i, targets.length, part.indices.length) });
    });
  });
  const result = await runSearchPart(deps, targets, search, part.indices.length);
  const response: SearchPartResponse = {
    total: result.total,
    totalRelation: result.totalRelation,
    maxScore: result.maxScore,
    terminatedEarly: result.terminatedEarly,
    hits: result.hits,
    ...(result.aggregations === undefined ? {} : { aggregations: result.aggregations }),
  };
  if (part.withMappings) {
    const mappings: Record<string, unknown> = {};
    for (const index of part.held) mappings[index] = engine.requireShard(index).mapping.toJSON();
    response.mappings = mappings;
  }
  return response;
}
