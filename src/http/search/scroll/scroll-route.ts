/**
 * The scroll endpoints: `GET|POST /_search/scroll[/<id>]` and `/{index}/_search/scroll` continue
 * a scroll (the path index changes nothing: the id names the search), `DELETE /_search/scroll[/<ids>]`
 * clears scrolls and answers `{"succeeded":true,"num_freed":n}`, with 404 when none was freed,
 * as Elasticsearch does.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessContext } from '../../../auth/index.js';
import type { ApiDeps } from '../../deps.js';
import { sendJsonText } from '../../json-reply.js';
import { boolParam, type QueryParams } from '../../query-params.js';
import { bodyOf } from '../get-body.js';
import { parseClearRequest, parseContinueRequest } from './scroll-request.js';
import { clearScrolls, continueScroll } from './scroll-search.js';
import type { ScrollStore } from './scroll-store.js';

type ScrollHttpRequest = FastifyRequest<{ Params: { scrollId?: string; index?: string }; Querystring: QueryParams }>;

export function registerScrollRoutes(
  app: FastifyInstance,
  deps: ApiDeps,
  store: ScrollStore,
  accessOf: (request: FastifyRequest) => AccessContext,
): void {
  const next = async (request: ScrollHttpRequest, reply: FastifyReply) => {
    const started = performance.now();
    const body = await bodyOf(request, deps.config.maxBulkBytes);
    const { scrollId, keepAliveMs } = parseContinueRequest(request.query, request.params.scrollId, body);
    const restTotalHitsAsInt = boolParam(request.query, 'rest_total_hits_as_int') ?? false;
    return sendJsonText(reply, await continueScroll(deps, store, accessOf(request), { scrollId, keepAliveMs, restTotalHitsAsInt }, started));
  };
  for (const path of ['/_search/scroll', '/_search/scroll/:scrollId', '/:index/_search/scroll']) {
    app.get(path, next);
    app.post(path, next);
  }

  const clear = async (request: ScrollHttpRequest, reply: FastifyReply) => {
    const ids = parseClearRequest(request.query, request.params.scrollId, request.body);
    const freed = clearScrolls(store, accessOf(request), ids);
    return reply.code(freed > 0 ? 200 : 404).send({ succeeded: true, num_freed: freed });
  };
  app.delete('/_search/scroll', clear);
  app.delete('/_search/scroll/:scrollId', clear);
}
