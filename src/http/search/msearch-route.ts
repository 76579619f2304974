/**
 * `_msearch` and `/{index}/_msearch` (GET and POST): each header/body pair is searched on its
 * own and answered in `responses[]` with its own `status`; a pair that fails (bad query, missing
 * index, forbidden index, timeout) becomes an error item and the others still run. The path
 * index and the URL's index options are the defaults a header may override.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessContext } from '../../auth/index.js';
import type { ApiDeps } from '../deps.js';
import { renderError } from '../error-render.js';
import { sendJsonText } from '../json-reply.js';
import { intParam, stringParam, type QueryParams } from '../query-params.js';
import { bodyBuffer } from '../request-body.js';
import { bodyOf } from './get-body.js';
import { parseMsearchBody, type MsearchItem } from './msearch-request.js';
import { checkUrlOptions, toSearchRequest } from './search-request.js';
import { renderSearchResponse } from './search-response.js';
import { checkAgainstMappings, fieldTypesOf, resolveScope, runSearch } from './search-scope.js';

type MsearchHttpRequest = FastifyRequest<{ Params: { index?: string }; Querystring: QueryParams }>;

/** URL parameters every item inherits (a header may override the index options). */
const INHERITED_PARAMS = ['rest_total_hits_as_int', 'typed_keys', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'search_type'];

/** One item's search: the text of its search response (the item's `status` is added after it). */
export type MsearchItemSearch = (access: AccessContext, params: QueryParams, index: string | undefined, body: Record<string, unknown>, startedMs: number) => Promise<string>;

export function registerMsearchRoutes(app: FastifyInstance, deps: ApiDeps, accessOf: (request: FastifyRequest) => AccessContext): void {
  const searchItem: MsearchItemSearch = async (access, params, index, body, startedMs) => {
    const search = toSearchRequest(params, body, deps.config.queryTimeoutMs);
    const scope = resolveScope(deps.engine, access, index, params);
    const typeOf = fieldTypesOf(deps.engine);
    checkAgainstMappings(search, scope.indices, typeOf);
    const result = await runSearch(deps, scope.targets, search);
    return renderSearchResponse(result, { tookMs: Math.round(performance.now() - startedMs), shards: scope.indices.length, search, typeOf });
  };
  registerMsearchPaths(app, deps.config, accessOf, searchItem);
}

/** The `_msearch` routes over `searchItem` (one process, or the api role of a cluster). */
export function registerMsearchPaths(
  app: FastifyInstance,
  config: { maxBulkBytes: number; queryThreads: number },
  accessOf: (request: FastifyRequest) => AccessContext,
  searchItem: MsearchItemSearch,
): void {
  const msearch = async (request: MsearchHttpRequest, reply: FastifyReply) => {
    const started = performance.now();
    checkUrlOptions(request.query);
    const items = parseMsearchBody(bodyBuffer(await bodyOf(request, config.maxBulkBytes)));
    const access = accessOf(request);
    // as many items at once as there are query threads (ES: max_concurrent_searches), in order
    const responses: string[] = new Array(items.length);
    const limit = Math.max(1, Math.min(items.length, concurrencyOf(request.query, config.queryThreads)));
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const i = next++;
        const item = items[i]!;
        try {
          const text = await searchItem(access, itemParams(request.query, item), item.index ?? request.params.index, item.body, performance.now());
          responses[i] = `${text.slice(0, -1)},"status":200}`;
        } catch (err) {
          const { body, internal } = renderError(err);
          if (internal) request.log.error({ err, url: request.url }, 'msearch item failed');
          responses[i] = JSON.stringify(body);
        }
      }
    };
    await Promise.all(Array.from({ length: limit }, lane));
    return sendJsonText(reply, `{"took":${Math.round(performance.now() - started)},"responses":[${responses.join(',')}]}`);
  };
  for (const path of ['/_msearch', '/:index/_msearch']) {
    app.get(path, msearch);
    app.post(path, msearch);
  }
}

function itemParams(url: QueryParams, item: MsearchItem): QueryParams {
  const params: QueryParams = {};
  for (const name of INHERITED_PARAMS) {
    const v = stringParam(url, name);
    if (v !== undefined) params[name] = v;
  }
  return { ...params, ...item.options };
}

function concurrencyOf(params: QueryParams, threads: number): number {
  const asked = intParam(params, 'max_concurrent_searches');
  return asked !== undefined && asked > 0 ? asked : threads;
}
