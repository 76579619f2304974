/**
 * `/_internal/es`: the Elasticsearch API of a cache node, for the api role to send it the
 * requests one index decides (document reads and writes, a part of a bulk body, index
 * management). The request runs through this node's own Elasticsearch routes (`esApp`, not
 * listening on any port) with the caller's credential, so access control checks it as in one
 * process; the answer goes back as it is.
 */
import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../../common/index.js';
import type { Engine } from '../../engine/index.js';
import { bodyBuffer } from '../request-body.js';

export const FORWARD_PATH = '/_internal/es';
/** the path and query of the Elasticsearch request a forwarded request carries (same method and body) */
export const FORWARD_URL_HEADER = 'x-svc-forward-url';
/** the concrete indexes a forwarded request is about: the node opens those placed on it first */
export const INDEXES_HEADER = 'x-svc-indexes';

/** request headers the api role passes on (the body is already inflated there) */
export const FORWARDED_HEADERS = ['authorization', 'content-type', 'x-opaque-id', 'accept'];
/** response headers passed back */
export const RETURNED_HEADERS = ['content-type', 'www-authenticate', 'warning'];

/** The headers of `names` that `get` has (repeated ones joined, as HTTP allows), for the next hop. */
export function pickHeaders(names: readonly string[], get: (name: string) => unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of names) {
    const v = get(name);
    if (typeof v === 'string') headers[name] = v;
    else if (Array.isArray(v)) headers[name] = v.join(', ');
  }
  return headers;
}

/** Refuses requests about indexes this cache node does not hold (see CacheHoldings.assertHeld). */
export interface CacheGuard {
  assertHeld(indexes: readonly string[]): Promise<void>;
}

export function registerForwardRoute(app: FastifyInstance, deps: CacheGuard & { engine: Engine; esApp: FastifyInstance }): void {
  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE'],
    url: FORWARD_PATH,
    handler: async (request, reply) => {
      const indexes = request.headers[INDEXES_HEADER];
      const named = typeof indexes === 'string' && indexes !== '' ? indexes.split(',') : [];
      await deps.assertHeld(named);
      if (named.length > 0) await deps.engine.openIndexes(named);
      const headers = pickHeaders(FORWARDED_HEADERS, (name) => request.headers[name]);
      const body = request.body === undefined ? undefined : bodyBuffer(request.body);
      const url = request.headers[FORWARD_URL_HEADER];
      if (typeof url !== 'string' || !url.startsWith('/')) throw new BadRequestError(`[${FORWARD_URL_HEADER}] must name the path of the request`);
      const res = await deps.esApp.inject({
        method: request.method as 'GET',
        url,
        headers,
        ...(body === undefined || body.length === 0 ? {} : { payload: body }),
      });
      void reply.headers(pickHeaders(RETURNED_HEADERS, (name) => res.headers[name]));
      return reply.code(res.statusCode).send(res.rawPayload);
    },
  });
}
