/**
 * `_search`, `_count` and `_msearch` in the api role of a cluster: the request is parsed and
 * its indexes resolved here (with the caller's access), each cache node holding some of them
 * searches its part (internal/search-part-route.ts), and the parts merge into the answer one
 * node holding every index would give: hits in sort order, totals added up, aggregation
 * partials merged and finalized, rendered by the same code.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessContext } from '../../auth/index.js';
import type { SearchResult } from '../../engine/index.js';
import { accessOf } from '../auth-hook.js';
import { sendJsonText } from '../json-reply.js';
import type { QueryParams } from '../query-params.js';
import { jsonObjectBody } from '../request-body.js';
import { AsyncSearchStore, registerAsyncSearchRoutes, type AsyncSearchRunner } from '../search/async/index.js';
import { bodyOf } from '../search/get-body.js';
import { registerMsearchPaths } from '../search/msearch-route.js';
import { checkCountBody, countAnswer } from '../search/search-route.js';
import { renderSearchResponse } from '../search/search-response.js';
import type { RoutedApiDeps } from './deps.js';
import { mergeParts, prepare, searchParts, type RoutedSearch } from './routed-parts.js';
import { openRoutedScroll, registerRoutedScrollRoutes, RoutedScrollStore } from './routed-scroll.js';

type SearchHttpRequest = FastifyRequest<{ Params: { index?: string; type?: string }; Querystring: QueryParams }>;

export function registerRoutedSearch(app: FastifyInstance, deps: RoutedApiDeps): void {
  const scrolls = new RoutedScrollStore(deps.config.maxOpenScrolls);
  app.addHook('onClose', async () => scrolls.close());
  registerRoutedScrollRoutes(app, deps, scrolls);
  const asyncSearches = new AsyncSearchStore({ maxStored: deps.config.maxOpenScrolls });
  app.addHook('onClose', async () => asyncSearches.close());
  registerAsyncSearchRoutes(app, deps, asyncSearches, accessOf, routedSearchRunner(deps));
  const searchRoute = async (request: SearchHttpRequest, reply: FastifyReply) => {
    const started = performance.now();
    const body = jsonObjectBody(await bodyOf(request, deps.config.maxBulkBytes));
    const access = accessOf(request);
    if (request.query.scroll !== undefined) {
      const routed = await prepare(deps, access, request.query, request.params.index, body);
      return sendJsonText(reply, await openRoutedScroll(deps, scrolls, access, routed, started));
    }
    const { text } = await routedSearch(deps, access, request.query, request.params.index, body, started);
    return sendJsonText(reply, text);
  };
  for (const path of ['/_search', '/:index/_search', '/:index/:type/_search', '/:index/_doc/_search']) {
    app.get(path, searchRoute);
    app.post(path, searchRoute);
  }
  const count = async (request: SearchHttpRequest) => {
    const body = jsonObjectBody(await bodyOf(request, deps.config.maxBulkBytes));
    checkCountBody(body);
    const asSearch = { ...body, size: 0, track_total_hits: true };
    // a count neither pages nor sorts (as on one process: no mapping check of a sort field)
    const params: QueryParams = { ...request.query };
    for (const name of ['size', 'from', 'sort']) delete params[name];
    const { result, shards } = await routedSearch(deps, accessOf(request), params, request.params.index, asSearch, performance.now());
    return countAnswer(result, shards);
  };
  for (const path of ['/_count', '/:index/_count', '/:index/:type/_count', '/:index/_doc/_count']) {
    app.get(path, count);
    app.post(path, count);
  }
  registerMsearchPaths(app, deps.config, accessOf, async (access, params, index, body, startedMs) => (await routedSearch(deps, access, params, index, body, startedMs)).text);
}

/** `_async_search` over the cache nodes: resolved before an id exists, then searched and rendered. */
function routedSearchRunner(deps: RoutedApiDeps): AsyncSearchRunner {
  return async (access, params, index, body, startedMs) => {
    const routed = await prepare(deps, access, params, index, body);
    return {
      indices: routed.indices,
      run: async () => (await searchAndRender(deps, routed, startedMs)).text,
    };
  };
}

/** One search over the cache nodes holding its indexes, rendered as one node renders it. */
async function routedSearch(
  deps: RoutedApiDeps,
  access: AccessContext,
  params: QueryParams,
  expression: string | undefined,
  body: Record<string, unknown> | undefined,
  startedMs: number,
): Promise<{ text: string; result: SearchResult; shards: number }> {
  return searchAndRender(deps, await prepare(deps, access, params, expression, body), startedMs);
}

async function searchAndRender(deps: RoutedApiDeps, routed: RoutedSearch, startedMs: number): Promise<{ text: string; result: SearchResult; shards: number }> {
  const { parts, typeOf } = await searchParts(deps, routed);
  const result = mergeParts(deps, routed, parts, routed.search.request);
  const text = renderSearchResponse(result, { tookMs: Math.round(performance.now() - startedMs), shards: routed.indices.length, search: routed.search, typeOf });
  return { text, result, shards: routed.indices.length };
}

