/**
 * `/_internal/es`: the Elasticsearch API of a cache node, for the api role to send it the
 * requests one index decides (document reads and writes, a part of a bulk body, index
 * management), and `/_internal/es/indexes`: its share of a request over several indexes. The
 * request runs through this node's own Elasticsearch routes (`esApp`, not listening on any
 * port) with the caller's credential, so access control checks it as in one process; the answer
 * goes back as it is.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { BadRequestError } from '../../common/index.js';
import type { Engine } from '../../engine/index.js';
import { bodyBuffer, jsonObjectBody } from '../request-body.js';

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

/**
 * A request over several indexes of this node, its path naming them (the api role sends each
 * cache node holding some indexes of a listing its share, see routed/fan-out.ts). A JSON body
 * rather than headers, so that the list of indexes has no header size limit.
 */
export const FORWARD_HELD_PATH = '/_internal/es/indexes';

export interface HeldForward {
  method: string;
  /** the Elasticsearch path and query, naming `indices` */
  url: string;
  /** the concrete indexes the request is about, every one held by this node */
  indices: string[];
  /** the FORWARDED_HEADERS of the request */
  headers: Record<string, string>;
  /** the request body, as text */
  body?: string;
}

export function registerForwardRoute(app: FastifyInstance, deps: CacheGuard & { engine: Engine; esApp: FastifyInstance }): void {
  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE'],
    url: FORWARD_PATH,
    handler: async (request, reply) => {
      const indexes = request.headers[INDEXES_HEADER];
      const url = request.headers[FORWARD_URL_HEADER];
      if (typeof url !== 'string' || !url.startsWith('/')) throw new BadRequestError(`[${FORWARD_URL_HEADER}] must name the path of the request`);
      const body = request.body === undefined ? undefined : bodyBuffer(request.body);
      return injected(deps, reply, {
        method: request.method,
        url,
        indices: typeof indexes === 'string' && indexes !== '' ? indexes.split(',') : [],
        headers: pickHeaders(FORWARDED_HEADERS, (name) => request.headers[name]),
        ...(body === undefined || body.length === 0 ? {} : { body }),
      });
    },
  });
  app.post(FORWARD_HELD_PATH, async (request, reply) => {
    const forward = jsonObjectBody(request.body) as Partial<HeldForward> | undefined;
    const { method, url, indices, headers, body } = forward ?? {};
    if (typeof method !== 'string' || typeof url !== 'string' || !url.startsWith('/') || !Array.isArray(indices) || typeof headers !== 'object' || headers === null) {
      throw new BadRequestError(`[${FORWARD_HELD_PATH}] needs [method], [url], [indices] and [headers]`);
    }
    return injected(deps, reply, { method, url, indices: indices.map(String), headers, ...(typeof body === 'string' && body.length > 0 ? { body: Buffer.from(body) } : {}) });
  });
}

/** Runs the request through this node's own Elasticsearch routes, once the indexes it names are known to be held here. */
async function injected(
  deps: CacheGuard & { engine: Engine; esApp: FastifyInstance },
  reply: FastifyReply,
  req: { method: string; url: string; indices: string[]; headers: Record<string, string>; body?: Buffer },
): Promise<FastifyReply> {
  await deps.assertHeld(req.indices);
  if (req.indices.length > 0) await deps.engine.openIndexes(req.indices);
  const res = await deps.esApp.inject({
    method: req.method as 'GET',
    url: req.url,
    headers: pickHeaders(FORWARDED_HEADERS, (name) => req.headers[name]),
    ...(req.body === undefined ? {} : { payload: req.body }),
  });
  void reply.headers(pickHeaders(RETURNED_HEADERS, (name) => res.headers[name]));
  return reply.code(res.statusCode).send(res.rawPayload);
}
