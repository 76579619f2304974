/**
 * `POST /_internal/search`: this cache node's part of a search the api role spreads over the
 * cache nodes (cluster/search-parts.ts). The api role resolved the indexes and checked the
 * caller's access; the body names the indexes this node answers for, and the search as the
 * client sent it, parsed here again with the same code. A scroll part pins this node's segments
 * (kept in a scroll store of its own, cleared by `DELETE /_internal/scroll/{id}` or on expiry)
 * and pages through them after the sort values the api role sends. `POST /_internal/mappings`:
 * the mappings of some of its indexes, as the search parts send them.
 */
import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../../common/index.js';
import { targetOrder, type SearchPartRequest, type SearchPartResponse } from '../../cluster/index.js';
import type { SearchTarget } from '../../engine/index.js';
import type { ApiDeps } from '../deps.js';
import type { CacheGuard } from './forward-route.js';
import { jsonObjectBody } from '../request-body.js';
import { toSearchRequest } from '../search/search-request.js';
import { runSearchPart } from '../search/search-scope.js';
import { currentReaders, newScrollId, pagingSort, pin, scrollMissing, ScrollStore, type ScrollContext } from '../search/scroll/index.js';

export type SearchPartDeps = Pick<ApiDeps, 'engine' | 'queryPool' | 'metrics' | 'config'>;

/** scroll views of this node belong to the cluster's api role, which checks the caller */
const CLUSTER_OWNER = '_cluster';

export function registerSearchPartRoute(app: FastifyInstance, deps: SearchPartDeps & CacheGuard): void {
  const scrolls = new ScrollStore({ maxOpen: deps.config.maxOpenScrolls });
  app.addHook('onClose', async () => scrolls.close());
  app.post('/_internal/search', async (request) => {
    const part = jsonObjectBody(request.body) as unknown as SearchPartRequest;
    await deps.assertHeld(part.held);
    return searchPart(deps, scrolls, part);
  });
  // the exact mappings of held indexes: the api role checks a mapping change of indexes held by
  // several nodes against all of them before any node makes it
  app.post('/_internal/mappings', async (request) => {
    const { indices } = (jsonObjectBody(request.body) ?? {}) as { indices?: unknown };
    if (!Array.isArray(indices)) throw new BadRequestError('[/_internal/mappings] needs [indices]');
    const held = indices.map(String);
    await deps.assertHeld(held);
    await deps.engine.openIndexes(held);
    return mappingsOf(deps, held);
  });
  app.delete('/_internal/scroll/:id', async (request) => {
    const { id } = request.params as { id: string };
    return { freed: scrolls.remove(id, CLUSTER_OWNER) };
  });
}

async function searchPart(deps: SearchPartDeps, scrolls: ScrollStore, part: SearchPartRequest): Promise<SearchPartResponse> {
  const { engine } = deps;
  await engine.openIndexes(part.held);
  let search = toSearchRequest(part.params, part.body, deps.config.queryTimeoutMs);
  search.request.nowMs = part.nowMs;
  let targets: SearchTarget[];
  let opened: ScrollContext | undefined;
  if (part.scroll?.id !== undefined) {
    const context = scrolls.get(part.scroll.id, CLUSTER_OWNER);
    if (context === undefined || context.indices.some(({ name, uuid }) => engine.shard(name)?.uuid !== uuid)) throw scrollMissing(part.scroll.id);
    scrolls.touch(context, part.scroll.keepAliveMs);
    context.targets = currentReaders(engine, context);
    targets = [...context.targets];
    // as in Elasticsearch, aggregations come with the first page only
    search = { ...context.search, request: { ...context.search.request, searchAfter: part.scroll.after, deadlineMs: search.request.deadlineMs }, aggregations: undefined };
  } else {
    targets = rankedTargets(deps, part);
    if (part.scroll !== undefined) {
      targets = pin(targets);
      search = { ...search, request: { ...search.request, sort: pagingSort(search.request.sort).sort } };
      scrolls.reserve();
      opened = {
        id: newScrollId(),
        owner: CLUSTER_OWNER,
        indices: part.held.map((name) => ({ name, uuid: engine.requireShard(name).uuid })),
        targets,
        search,
        sortValuesShown: undefined,
        keepAliveMs: part.scroll.keepAliveMs,
        expiresAtMs: 0,
        after: undefined,
      };
    }
  }
  let result: Awaited<ReturnType<typeof runSearchPart>>;
  try {
    result = await runSearchPart(deps, targets, search, part.indices.length);
  } catch (err) {
    if (opened !== undefined) scrolls.release();
    throw err;
  }
  if (opened !== undefined) {
    scrolls.touch(opened);
    scrolls.add(opened);
  }
  const response: SearchPartResponse = {
    total: result.total,
    totalRelation: result.totalRelation,
    maxScore: result.maxScore,
    terminatedEarly: result.terminatedEarly,
    hits: result.hits,
    ...(result.aggregations === undefined ? {} : { aggregations: result.aggregations }),
    ...(opened === undefined ? {} : { scrollId: opened.id }),
  };
  if (part.withMappings) response.mappings = mappingsOf(deps, part.held);
  return response;
}

/** The held indexes' segments, each index in its block of positions (see targetOrder). */
function rankedTargets(deps: SearchPartDeps, part: SearchPartRequest): SearchTarget[] {
  const held = new Set(part.held);
  const targets: SearchTarget[] = [];
  part.indices.forEach((index, rank) => {
    if (!held.has(index)) return;
    deps.engine
      .requireShard(index)
      .searchTargets()
      .forEach((t, i) => targets.push({ ...t, order: targetOrder(rank, i, targets.length, part.indices.length) }));
  });
  return targets;
}

function mappingsOf(deps: SearchPartDeps, indexes: readonly string[]): Record<string, unknown> {
  const mappings: Record<string, unknown> = {};
  for (const index of indexes) mappings[index] = deps.engine.requireShard(index).mapping.toJSON();
  return mappings;
}
