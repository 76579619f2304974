/**
 * `_search` and `_count` (GET and POST, with or without index and legacy type in the path):
 * parse, resolve the readable indexes, run the engine's search, render. A search with
 * `scroll=` opens a scroll. Registers the `_msearch`, scroll and `_async_search` routes too,
 * which run searches the same way.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../../common/index.js';
import type { ApiDeps } from '../deps.js';
import type { AccessContext } from '../../auth/index.js';
import { sendJsonText } from '../json-reply.js';
import type { QueryParams } from '../query-params.js';
import { jsonObjectBody } from '../request-body.js';
import { bodyOf } from './get-body.js';
import { registerMsearchRoutes } from './msearch-route.js';
import { AsyncSearchStore, engineSearchRunner, registerAsyncSearchRoutes } from './async/index.js';
import { ScrollStore, openScroll, registerScrollRoutes } from './scroll/index.js';
import { toSearchRequest } from './search-request.js';
import { executeSearch, prepareSearch } from './prepare-search.js';
import { resolveScope, runSearch } from './search-scope.js';


interface IndexParams {
  index?: string;
  type?: string;
}

type SearchHttpRequest = FastifyRequest<{ Params: IndexParams; Querystring: QueryParams }>;

/** the keys of a `_count` body */
const COUNT_BODY_KEYS = new Set(['query']);

export function registerSearchRoutes(app: FastifyInstance, deps: ApiDeps, accessOf: (request: FastifyRequest) => AccessContext): void {
  const scrolls = new ScrollStore({ maxOpen: deps.config.maxOpenScrolls });
  app.addHook('onClose', async () => scrolls.close());

  const search = async (request: SearchHttpRequest, reply: FastifyReply) => {
    const body = jsonObjectBody(await bodyOf(request, deps.config.maxBulkBytes));
    return sendJsonText(reply, await searchOnce(request, body, deps, accessOf(request), scrolls));
  };
  // `/{index}/_doc/_search` is named apart: the document routes would take `_search` for an `_id`
  for (const path of ['/_search', '/:index/_search', '/:index/:type/_search', '/:index/_doc/_search']) {
    app.get(path, search);
    app.post(path, search);
  }
  const count = async (request: SearchHttpRequest) => {
    const body = jsonObjectBody(await bodyOf(request, deps.config.maxBulkBytes));
    return runCount(request, body, deps, accessOf(request));
  };
  for (const path of ['/_count', '/:index/_count', '/:index/:type/_count', '/:index/_doc/_count']) {
    app.get(path, count);
    app.post(path, count);
  }
  registerMsearchRoutes(app, deps, accessOf);
  registerScrollRoutes(app, deps, scrolls, accessOf);
  const asyncSearches = new AsyncSearchStore({ maxStored: deps.config.maxOpenScrolls });
  app.addHook('onClose', async () => asyncSearches.close());
  registerAsyncSearchRoutes(app, deps, asyncSearches, accessOf, engineSearchRunner(deps));
}

async function searchOnce(
  request: SearchHttpRequest,
  body: Record<string, unknown> | undefined,
  deps: ApiDeps,
  access: AccessContext,
  scrolls: ScrollStore,
): Promise<string> {
  const started = performance.now();
  const prepared = prepareSearch(deps, access, request.query, request.params.index, body);
  const { search, scope } = prepared;
  if (search.scrollKeepAliveMs !== undefined) {
    return openScroll(deps, scrolls, access, scope, search, search.scrollKeepAliveMs, started);
  }
  return executeSearch(deps, prepared, started);
}

async function runCount(request: SearchHttpRequest, body: Record<string, unknown> | undefined, deps: ApiDeps, access: AccessContext) {
  checkCountBody(body);
  const search = toSearchRequest(request.query, body, deps.config.queryTimeoutMs);
  const scope = resolveScope(deps.engine, access, request.params.index, request.query);
  const result = await runSearch(deps, scope.targets, { ...search, request: { ...search.request, from: 0, size: 0, sort: [], trackTotalHits: true } });
  return countAnswer(result, scope.indices.length);
}

/** `_count` takes only a query in its body. */
export function checkCountBody(body: Record<string, unknown> | undefined): void {
  for (const key of Object.keys(body ?? {})) {
    if (!COUNT_BODY_KEYS.has(key)) throw new BadRequestError(`request does not support [${key}]`, 'parsing_exception');
  }
}

/** The answer of `_count` from a search's result over `shards` indexes. */
export function countAnswer(result: { total: number; terminatedEarly?: boolean }, shards: number): Record<string, unknown> {
  return {
    count: result.total,
    ...(result.terminatedEarly ? { terminated_early: true } : {}),
    _shards: { total: shards, successful: shards, skipped: 0, failed: 0 },
  };
}
