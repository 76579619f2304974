/**
 * Requests the api role of a cluster does not split or fan out go whole to one cache node's
 * Elasticsearch API (`/_internal/es`, see internal/forward-route.ts), with the caller's
 * credential: a path that names one index (documents, `PUT /{index}`, its mapping or settings)
 * to the node holding it, placing a new index first when the request may create it; anything
 * else (the catalog: templates, aliases, cluster settings and state) to any live cache node.
 * A request the node refused before applying it (its index is being handed over) is sent again
 * where the placements then say, until the request's deadline.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FORWARDED_HEADERS, FORWARD_PATH, FORWARD_URL_HEADER, INDEXES_HEADER, pickHeaders, RETURNED_HEADERS } from '../internal/forward-route.js';
import { bodyBuffer } from '../request-body.js';
import { bodyOf } from '../search/get-body.js';
import { notApplied } from '../../cluster/index.js';
import type { RoutedApiDeps } from './deps.js';

/** Methods that may create the index their path names. */
const CREATING = new Set(['PUT', 'POST']);

export async function forwardRequest(deps: RoutedApiDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const path = request.url.split('?')[0]!;
  const first = decodeURIComponent(path.split('/')[1] ?? '');
  const raw = await bodyOf(request, deps.config.maxBulkBytes);
  const body = raw === undefined || raw === null ? undefined : bodyBuffer(raw);
  const deadline = deps.routing.deadline();
  for (;;) {
    let target: { url: string; index?: string };
    if (first !== '' && !first.startsWith('_') && !/[*,]/.test(first)) {
      target = await indexTarget(deps, first, request.method, deadline);
    } else {
      target = { url: await deps.routing.anyCacheUrl() };
    }
    const headers = pickHeaders(FORWARDED_HEADERS, (name) => request.headers[name]);
    if (target.index !== undefined) headers[INDEXES_HEADER] = target.index;
    headers[FORWARD_URL_HEADER] = request.url;
    const res = await deps.client.call(target.url, FORWARD_PATH, {
      method: request.method,
      headers,
      ...(body === undefined || body.length === 0 || request.method === 'HEAD' ? {} : { body }),
    });
    // the request may have created or deleted an index, or changed aliases
    if ((request.method !== 'GET' && request.method !== 'HEAD') || res.status === 503) deps.routing.invalidate();
    // refused before anything was applied (the index is moving): sent again where it went
    if (res.status === 503 && Date.now() < deadline && notApplied(res.status, errorType(res.body))) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    void reply.headers(pickHeaders(RETURNED_HEADERS, (name) => res.headers.get(name)));
    return reply.code(res.status).send(res.body);
  }
}

/** The Elasticsearch error type of an error answer, if it has one. */
function errorType(body: Buffer): string | undefined {
  try {
    const type = (JSON.parse(body.toString('utf8')) as { error?: { type?: unknown } } | null)?.error?.type;
    return typeof type === 'string' ? type : undefined;
  } catch {
    return undefined;
  }
}

/** The node holding the index a path names (an alias: its write index for a write, its only index for a read). */
async function indexTarget(deps: RoutedApiDeps, name: string, method: string, deadline: number): Promise<{ url: string; index?: string }> {
  const { routing } = deps;
  const creating = CREATING.has(method);
  let index = name;
  if (method !== 'GET' && method !== 'HEAD') {
    try {
      index = await routing.writeIndexFor(name);
    } catch {
      // no write index: the cache node answers with the error, as one process does
      return { url: await routing.anyCacheUrl() };
    }
  } else {
    const aliased = (await routing.current()).aliases.map().get(name);
    if (aliased !== undefined) {
      if (aliased.length !== 1) return { url: await routing.anyCacheUrl() };
      index = aliased[0]!;
    }
  }
  const url = await routing.ownerUrl(index, creating, deadline);
  // an index nobody holds does not exist: any node answers 404 as one process does
  return url === undefined ? { url: await routing.anyCacheUrl() } : { url, index };
}
