/**
 * `_search`, `_count` and `_msearch` in the api role of a cluster: the request is parsed and
 * its indexes resolved here (with the caller's access), each cache node holding some of them
 * searches its part (internal/search-part-route.ts), and the parts merge into the answer one
 * node holding every index would give: hits in sort order, totals added up, aggregation
 * partials merged and finalized, rendered by the same code.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessContext } from '../../auth/index.js';
import { BadRequestError } from '../../common/index.js';
import type { SearchPartRequest, SearchPartResponse } from '../../cluster/index.js';
import { IndexMapping, mergeSearchResults, type SearchResult } from '../../engine/index.js';
import { aggregationService, parseSearchAggregations, renderAggregations } from '../aggregations/index.js';
import { accessOf } from '../auth-hook.js';
import { renderError } from '../error-render.js';
import { sendJsonText } from '../json-reply.js';
import type { QueryParams } from '../query-params.js';
import { bodyBuffer, jsonObjectBody } from '../request-body.js';
import { bodyOf } from '../search/get-body.js';
import type { FieldTypeLookup } from '../search/hit-fields.js';
import { concurrencyOf, itemParams } from '../search/msearch-route.js';
import { parseMsearchBody } from '../search/msearch-request.js';
import { checkUrlOptions, toSearchRequest, type EsSearch } from '../search/search-request.js';
import { renderSearchResponse } from '../search/search-response.js';
import { BUILTIN_SORT_FIELDS, checkAgainstMappings } from '../search/search-scope.js';
import { readableIndices } from '../search/target-indices.js';
import type { RoutedApiDeps } from './deps.js';

type SearchHttpRequest = FastifyRequest<{ Params: { index?: string; type?: string }; Querystring: QueryParams }>;

/** `_count` takes only a query in its body. */
const COUNT_BODY_KEYS = new Set(['query']);

export function registerRoutedSearch(app: FastifyInstance, deps: RoutedApiDeps): void {
  const search = async (request: SearchHttpRequest, reply: FastifyReply) => {
    const started = performance.now();
    const body = jsonObjectBody(await bodyOf(request, deps.config.maxBulkBytes));
    if (request.query.scroll !== undefined) throw new BadRequestError('scroll searches are not supported by the api role of a split cluster yet');
    const { text } = await routedSearch(deps, accessOf(request), request.query, request.params.index, body, started);
    return sendJsonText(reply, text);
  };
  for (const path of ['/_search', '/:index/_search', '/:index/:type/_search', '/:index/_doc/_search']) {
    app.get(path, search);
    app.post(path, search);
  }
  const count = async (request: SearchHttpRequest) => {
    const body = jsonObjectBody(await bodyOf(request, deps.config.maxBulkBytes));
    for (const key of Object.keys(body ?? {})) {
      if (!COUNT_BODY_KEYS.has(key)) throw new BadRequestError(`request does not support [${key}]`, 'parsing_exception');
    }
    const asSearch = { ...body, size: 0, track_total_hits: true };
    const params: QueryParams = { ...request.query };
    delete params.size;
    const { result, shards } = await routedSearch(deps, accessOf(request), params, request.params.index, asSearch, performance.now());
    return {
      count: result.total,
      ...(result.terminatedEarly ? { terminated_early: true } : {}),
      _shards: { total: shards, successful: shards, skipped: 0, failed: 0 },
    };
  };
  for (const path of ['/_count', '/:index/_count', '/:index/:type/_count', '/:index/_doc/_count']) {
    app.get(path, count);
    app.post(path, count);
  }
  const msearch = async (request: SearchHttpRequest, reply: FastifyReply) => {
    const started = performance.now();
    checkUrlOptions(request.query);
    const items = parseMsearchBody(bodyBuffer(await bodyOf(request, deps.config.maxBulkBytes)));
    const access = accessOf(request);
    const responses: string[] = new Array(items.length);
    const limit = Math.max(1, Math.min(items.length, concurrencyOf(request.query, deps.config.queryThreads)));
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const i = next++;
        const item = items[i]!;
        try {
          const { text } = await routedSearch(deps, access, itemParams(request.query, item), item.index ?? request.params.index, item.body, performance.now());
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

/** One search over the cache nodes holding its indexes, rendered as one node renders it. */
async function routedSearch(
  deps: RoutedApiDeps,
  access: AccessContext,
  params: QueryParams,
  expression: string | undefined,
  body: Record<string, unknown> | undefined,
  startedMs: number,
): Promise<{ text: string; result: SearchResult; shards: number }> {
  const search = toSearchRequest(params, body, deps.config.queryTimeoutMs);
  const aggregations = parseSearchAggregations(search);
  const snapshot = await deps.routing.current();
  const indices = readableIndices({ indexNames: () => snapshot.indexes, aliasMap: () => snapshot.aliases.map() }, access, expression, params);
  const nowMs = search.request.nowMs ?? Date.now();
  const owners = await deps.routing.byOwner(indices);
  const withMappings = needsMappings(search);
  const parts = await Promise.all(
    [...owners].map(([url, held]) => {
      const part: SearchPartRequest = { indices, held, params: stringParams(params), ...(body === undefined ? {} : { body }), nowMs, withMappings };
      return deps.client.json<SearchPartResponse>(url, '/_internal/search', part);
    }),
  );
  const mappings = new Map<string, IndexMapping>();
  for (const part of parts) for (const [index, json] of Object.entries(part.mappings ?? {})) mappings.set(index, IndexMapping.fromJSON(json));
  const typeOf: FieldTypeLookup = (index, field) => mappings.get(index)?.fieldType(field);
  checkAgainstMappings(search, indices, typeOf);
  const result = mergeSearchResults(parts, search.request);
  let aggregationsJson: string | undefined;
  if (aggregations !== undefined) {
    const results = aggregationService(deps).reduceParts(
      { query: search.aggregationQuery, aggs: aggregations.specs, nowMs },
      parts.map((p) => p.aggregations ?? null),
      indices.length,
    );
    aggregationsJson = renderAggregations(aggregations.views, results, search.typedKeys);
  }
  const text = renderSearchResponse(result, {
    tookMs: Math.round(performance.now() - startedMs),
    shards: indices.length,
    search,
    typeOf,
    ...(aggregationsJson === undefined ? {} : { aggregationsJson }),
  });
  return { text, result, shards: indices.length };
}

/** Whether rendering or checking the search needs the indexes' field types. */
function needsMappings(search: EsSearch): boolean {
  return (
    search.docvalueFields.length > 0 ||
    search.fetchFields.length > 0 ||
    search.highlight !== undefined ||
    search.request.sort.some((k) => !BUILTIN_SORT_FIELDS.has(k.field) && !search.unmappedSortFields.has(k.field))
  );
}

function stringParams(params: QueryParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) out[k] = v;
  return out;
}
