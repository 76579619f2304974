/**
 * The steps every listing over indexes takes in the api role of a cluster: the index expression
 * resolved against the catalog with the caller's access (the same checks and errors as one
 * process), each cache node holding some of the indexes asked for its share by a path naming
 * them, and the answers merged per endpoint. When the expression resolves to no index, no node
 * holds any: the request goes whole to one cache node, which answers as one process does over
 * nothing (an empty listing, or the error it gives).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IndexNotFoundError } from '../../common/index.js';
import type { QueryParams } from '../query-params.js';
import { bodyBuffer } from '../request-body.js';
import type { IndexNames } from '../search/target-indices.js';
import type { RoutedApiDeps } from './deps.js';
import { askHolders, type HolderAnswer } from './fan-out.js';
import { forwardRequest } from './forward.js';

export type ListingRequest = FastifyRequest<{ Params: Record<string, string | undefined>; Querystring: QueryParams }>;

export interface Listing {
  /** the indexes the request covers, checked and resolved as one process does (errors included) */
  targets(catalog: IndexNames, request: ListingRequest): string[];
  /** before any holder is asked: what needs every index at once (a change made all or nothing) */
  before?(names: readonly string[], request: ListingRequest): Promise<void>;
  /** the path and query a holder is asked, naming its indexes; by default the request's own with them in place of its expression */
  url?(request: ListingRequest, held: readonly string[]): string;
  /** the answers (in the order of the holders' first index) merged into the reply */
  merge(reply: FastifyReply, names: readonly string[], answers: HolderAnswer[], request: ListingRequest): FastifyReply | Record<string, unknown>;
}

/** The catalog as the routing snapshot holds it. */
export async function catalogOf(deps: RoutedApiDeps, fresh = false): Promise<IndexNames> {
  const snapshot = await deps.routing.current(fresh);
  return { indexNames: () => snapshot.indexes, aliasMap: () => snapshot.aliases.map() };
}

/**
 * `resolve` over the catalog; an index it does not find is looked for again in the catalog read
 * afresh (created through another api process within the last heartbeat interval).
 */
export async function resolvedOnCatalog<T>(deps: RoutedApiDeps, resolve: (catalog: IndexNames) => T): Promise<T> {
  try {
    return resolve(await catalogOf(deps));
  } catch (err) {
    if (!(err instanceof IndexNotFoundError)) throw err;
    return resolve(await catalogOf(deps, true));
  }
}

export async function answerListing(deps: RoutedApiDeps, listing: Listing, request: ListingRequest, reply: FastifyReply): Promise<FastifyReply | Record<string, unknown>> {
  const names = await resolvedOnCatalog(deps, (catalog) => listing.targets(catalog, request));
  if (names.length > 0) await listing.before?.(names, request);
  const body = request.body === undefined || request.body === null ? undefined : bodyBuffer(request.body);
  const answers =
    names.length === 0
      ? []
      : await askHolders(deps, request, names, {
          method: request.method,
          url: (held) => (listing.url ?? namingUrl)(request, held),
          ...(body === undefined || body.length === 0 ? {} : { body }),
        });
  if (answers.length === 0) return forwardRequest(deps, request, reply);
  return listing.merge(reply, names, answers, request);
}

/** The request's path and query with `held` in place of its index expression (or before the path without one). */
export function namingUrl(request: ListingRequest, held: readonly string[]): string {
  const [path, query] = splitUrl(request.url);
  let rest = path;
  if (request.params.index !== undefined) {
    const slash = path.indexOf('/', 1);
    rest = slash < 0 ? '' : path.slice(slash);
  }
  return `/${encodeURIComponent(held.join(','))}${rest}${query}`;
}

/** `url` with the query parameter `name` set to `value`. */
export function withParam(url: string, name: string, value: string): string {
  const [path, query] = splitUrl(url);
  const params = new URLSearchParams(query);
  params.set(name, value);
  return `${path}?${params.toString()}`;
}

/** `[path, "?query" or ""]` */
export function splitUrl(url: string): [string, string] {
  const q = url.indexOf('?');
  return q < 0 ? [url, ''] : [url.slice(0, q), url.slice(q)];
}

/** Entries keyed by index name, from every answer, in the order of `names` (one process lists them so). */
export function byIndex(names: readonly string[], parts: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  const all: Record<string, unknown> = Object.assign({}, ...parts);
  const out: Record<string, unknown> = {};
  for (const name of names) if (Object.hasOwn(all, name)) out[name] = all[name];
  return out;
}

/** Numbers added up leaf by leaf, over objects of the same shape (the `_shards` headers, `_stats` sections). */
export function addedUp(parts: readonly unknown[]): unknown {
  const [first, ...rest] = parts;
  if (typeof first === 'number') return rest.reduce<number>((sum, n) => sum + (typeof n === 'number' ? n : 0), first);
  if (typeof first !== 'object' || first === null || Array.isArray(first)) return first;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(first)) out[key] = addedUp(parts.map((p) => (p as Record<string, unknown> | undefined)?.[key]));
  return out;
}
