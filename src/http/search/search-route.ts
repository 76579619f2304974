/**
 * `_search` and `_count` (GET and POST, with or without index and legacy type in the path):
 * parse, resolve the readable indexes, run the engine's search, render.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError } from '../../common/index.js';
import { executeSearch } from '../../engine/index.js';
import type { ApiDeps } from '../deps.js';
import type { AccessContext } from '../../auth/index.js';
import { sendJsonText } from '../json-reply.js';
import type { QueryParams } from '../query-params.js';
import { jsonObjectBody } from '../request-body.js';
import { toSearchRequest } from './search-request.js';
import { renderSearchResponse } from './search-response.js';
import { readableIndices } from './target-indices.js';

interface IndexParams {
  index?: string;
  type?: string;
}

type SearchHttpRequest = FastifyRequest<{ Params: IndexParams; Querystring: QueryParams }>;

export function registerSearchRoutes(app: FastifyInstance, deps: ApiDeps, accessOf: (request: FastifyRequest) => AccessContext): void {
  const search = async (request: SearchHttpRequest, reply: FastifyReply) => sendJsonText(reply, runSearch(request, deps, accessOf(request)));
  for (const path of ['/_search', '/:index/_search', '/:index/:type/_search']) {
    app.get(path, search);
    app.post(path, search);
  }
  const count = async (request: SearchHttpRequest) => runCount(request, deps, accessOf(request));
  for (const path of ['/_count', '/:index/_count', '/:index/:type/_count']) {
    app.get(path, count);
    app.post(path, count);
  }
}

function runSearch(request: SearchHttpRequest, deps: ApiDeps, access: AccessContext): string {
  const started = performance.now();
  const search = toSearchRequest(request.query, jsonObjectBody(request.body), deps.config.queryTimeoutMs);
  if (search.aggregations !== undefined && Object.keys(search.aggregations).length > 0) {
    throw new BadRequestError('aggregations are not supported by this server yet', 'illegal_argument_exception');
  }
  const indices = readableIndices(deps.engine, access, request.params.index, request.query);
  const targets = deps.engine.searchTargets(indices);
  const result = measured(deps, () => executeSearch(targets, search.request));
  return renderSearchResponse(result, { tookMs: Math.round(performance.now() - started), shards: indices.length, search });
}

function runCount(request: SearchHttpRequest, deps: ApiDeps, access: AccessContext) {
  const body = jsonObjectBody(request.body);
  if (body) {
    for (const key of Object.keys(body)) {
      if (key !== 'query') throw new BadRequestError(`request does not support [${key}]`, 'parsing_exception');
    }
  }
  const search = toSearchRequest(request.query, body, deps.config.queryTimeoutMs);
  const indices = readableIndices(deps.engine, access, request.params.index, request.query);
  const targets = deps.engine.searchTargets(indices);
  const result = measured(deps, () => executeSearch(targets, { ...search.request, from: 0, size: 0, sort: [], trackTotalHits: true }));
  return { count: result.total, _shards: { total: indices.length, successful: indices.length, skipped: 0, failed: 0 } };
}

/** Runs one query task with the query metrics around it. */
export function measured<T>(deps: ApiDeps, task: () => T): T {
  const m = deps.metrics;
  m.queryTasksTotal.inc();
  m.queryTasksCurrentCount.inc();
  try {
    return task();
  } catch (err) {
    if (!(err instanceof Error && 'status' in err)) m.queryTasksPanickedTotal.inc();
    throw err;
  } finally {
    m.queryTasksCurrentCount.dec();
  }
}
