/**
 * Requests over indexes that several cache nodes hold: every node holding some of them is asked
 * for its share at once, and the caller merges the answers (searches their hits and
 * aggregations, listings their entries, per endpoint). A node stopping, or an index moving,
 * answers 503: the request is asked again with the placements read again, until the request's
 * deadline. Every share asked again is safe to ask twice: reads, and changes that come to the
 * same when made again (a deletion asked again ignores what is gone).
 */
import type { FastifyRequest } from 'fastify';
import { remoteError } from '../../cluster/index.js';
import { FORWARDED_HEADERS, FORWARD_HELD_PATH, pickHeaders, type HeldForward } from '../internal/forward-route.js';
import type { RoutedApiDeps } from './deps.js';

/**
 * `run` over the live cache nodes holding `indices` (node URL → its indexes, in the order of
 * `indices`), again with the placements read again after a 503 while `retry` and the request's
 * deadline (one for all its parts) allow; `owners`: as already read.
 */
export async function withPlacements<T>(
  deps: RoutedApiDeps,
  indices: readonly string[],
  run: (owners: ReadonlyMap<string, string[]>) => Promise<T>,
  opts: { owners?: ReadonlyMap<string, string[]>; deadlineMs?: number; retry?: boolean } = {},
): Promise<T> {
  const deadline = opts.deadlineMs ?? deps.routing.deadline();
  let owners = opts.owners ?? (await deps.routing.byOwner(indices, deadline));
  for (;;) {
    try {
      return await run(owners);
    } catch (err) {
      if ((err as { status?: number }).status !== 503) throw err;
      // the node died, is stopping, or no longer holds the index
      deps.routing.invalidate();
      if (opts.retry === false || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
      owners = await deps.routing.byOwner(indices, deadline);
    }
  }
}

/** One holder's answer: the indexes it was asked about and the body it answered with (a 2xx). */
export interface HolderAnswer {
  held: string[];
  body: Buffer;
}

/** The share of a request one holder is asked: `url` names its indexes (path and query). */
export interface Share {
  method: string;
  url: (held: readonly string[]) => string;
  /** the body, or each holder's own */
  body?: Buffer | ((held: readonly string[]) => Buffer);
  /** request headers replacing the caller's (the content type of a body made here) */
  headers?: Record<string, string>;
}

/**
 * Every live holder of `indices` asked its share of the request, with the caller's credential
 * (each node checks it as one process does); the answers in the order of the holders' first
 * index. An error answer is thrown as the error it renders; none when no node holds any.
 */
export async function askHolders(deps: RoutedApiDeps, request: FastifyRequest, indices: readonly string[], share: Share): Promise<HolderAnswer[]> {
  const headers = { ...pickHeaders(FORWARDED_HEADERS, (name) => request.headers[name]), ...share.headers };
  return withPlacements(deps, indices, (owners) =>
    Promise.all(
      [...owners].map(async ([url, held]): Promise<HolderAnswer> => {
        const body = typeof share.body === 'function' ? share.body(held) : share.body;
        const forward: HeldForward = { method: share.method, url: share.url(held), indices: held, headers, ...(body === undefined ? {} : { body: body.toString('utf8') }) };
        const res = await deps.client.call(url, FORWARD_HELD_PATH, { method: 'POST', body: JSON.stringify(forward), headers: { 'content-type': 'application/json' } });
        if (res.status >= 300) throw remoteError(res.status, parsedOrNull(res.body));
        return { held, body: res.body };
      }),
    ),
  );
}

/** A holder's JSON answer. */
export function jsonOf<T = Record<string, unknown>>(answer: HolderAnswer): T {
  return JSON.parse(answer.body.toString('utf8')) as T;
}

function parsedOrNull(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}
