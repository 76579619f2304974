/**
 * Scrolls in the api role of a cluster. Opening one asks every cache node holding some of its
 * indexes to pin its segments as they are (a view of its own, with an id); each page then asks
 * every node for its hits after the sort values of the last hit of the merged previous page,
 * and merges them. The sort ends in `_doc`, whose values are unique across nodes (each index
 * has its block of positions), so no hit is repeated or skipped. Clearing a scroll clears the
 * nodes' views; the ones a node keeps expire with the scroll's keep-alive anyway.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accessOf } from '../auth-hook.js';
import type { AccessContext } from '../../auth/index.js';
import { forbiddenIndexError } from '../../auth/index.js';
import { TooManyRequestsError } from '../../common/index.js';
import type { SearchPartResponse } from '../../cluster/index.js';
import { sendJsonText } from '../json-reply.js';
import { boolParam, type QueryParams } from '../query-params.js';
import { bodyOf } from '../search/get-body.js';
import type { FieldTypeLookup } from '../search/hit-fields.js';
import { OwnedStore, type OwnedEntry } from '../search/owned-store.js';
import { lastSortValues, newScrollId, pagingSort, parseClearRequest, parseContinueRequest, scrollMissing } from '../search/scroll/index.js';
import { renderSearchResponse } from '../search/search-response.js';
import type { RoutedApiDeps } from './deps.js';
import { mergeParts, searchParts, type RoutedSearch } from './routed-parts.js';

interface RoutedScroll extends OwnedEntry {
  /** the search with its paging sort */
  routed: RoutedSearch;
  /** node URL → the id of its view */
  views: Map<string, string>;
  sortValuesShown: number | undefined;
  keepAliveMs: number;
  after: unknown[] | undefined;
  busy?: Promise<unknown>;
}

export class RoutedScrollStore extends OwnedStore<RoutedScroll> {
  constructor(private readonly maxOpen: number) {
    super({});
  }

  add(scroll: RoutedScroll): void {
    if (this.size >= this.maxOpen) this.sweep();
    if (this.size >= this.maxOpen) {
      throw new TooManyRequestsError(
        `Trying to create too many scroll contexts. Must be less than or equal to: [${this.maxOpen}]. ` +
          'This limit can be set by changing the [SVC_MAX_OPEN_SCROLLS] setting; clear scrolls that are done with DELETE /_search/scroll',
      );
    }
    this.put(scroll);
  }

  removeAll(owner: string): RoutedScroll[] {
    this.sweep();
    const removed = [...this.entries.values()].filter((s) => s.owner === owner);
    for (const s of removed) this.entries.delete(s.id);
    return removed;
  }
}

export async function openRoutedScroll(deps: RoutedApiDeps, store: RoutedScrollStore, access: AccessContext, routed: RoutedSearch, startedMs: number): Promise<string> {
  const keepAliveMs = routed.search.scrollKeepAliveMs!;
  const { sort, shown } = pagingSort(routed.search.request.sort);
  const paged: RoutedSearch = { ...routed, search: { ...routed.search, request: { ...routed.search.request, sort } } };
  const { parts, typeOf } = await searchParts(deps, paged, () => ({ keepAliveMs }));
  const result = mergeParts(deps, paged, parts, paged.search.request);
  const scroll: RoutedScroll = {
    id: newScrollId(),
    owner: access.principalLabel,
    routed: paged,
    views: new Map(parts.map((p) => [p.url, p.scrollId!])),
    sortValuesShown: shown,
    keepAliveMs,
    expiresAtMs: store.now() + keepAliveMs,
    after: lastSortValues(result, undefined),
  };
  try {
    store.add(scroll);
  } catch (err) {
    clearViews(deps, scroll);
    throw err;
  }
  return renderPage(result, paged, typeOf, scroll, startedMs);
}

/** A page of a scroll, as the single-process scroll renders it: with its id and only the sort values the caller asked for. */
function renderPage(result: Parameters<typeof renderSearchResponse>[0], routed: RoutedSearch, typeOf: FieldTypeLookup, scroll: RoutedScroll, startedMs: number): string {
  return renderSearchResponse(result, {
    tookMs: Math.round(performance.now() - startedMs),
    shards: routed.indices.length,
    search: routed.search,
    typeOf,
    scrollId: scroll.id,
    sortValuesShown: scroll.sortValuesShown,
  });
}

type ScrollHttpRequest = FastifyRequest<{ Params: { scrollId?: string; index?: string }; Querystring: QueryParams }>;

export function registerRoutedScrollRoutes(app: FastifyInstance, deps: RoutedApiDeps, store: RoutedScrollStore): void {
  const next = async (request: ScrollHttpRequest, reply: FastifyReply) => {
    const started = performance.now();
    const body = await bodyOf(request, deps.config.maxBulkBytes);
    const { scrollId, keepAliveMs } = parseContinueRequest(request.query, request.params.scrollId, body);
    const restTotalHitsAsInt = boolParam(request.query, 'rest_total_hits_as_int') ?? false;
    const access = accessOf(request);
    const scroll = store.get(scrollId, access.principalLabel);
    if (scroll === undefined) throw scrollMissing(scrollId);
    // two requests on one scroll take turns, so that neither repeats the other's page
    const page = (scroll.busy ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => nextPage(deps, store, access, scroll, keepAliveMs, restTotalHitsAsInt, started));
    scroll.busy = page;
    return sendJsonText(reply, await page);
  };
  for (const path of ['/_search/scroll', '/_search/scroll/:scrollId', '/:index/_search/scroll']) {
    app.get(path, next);
    app.post(path, next);
  }
  const clear = async (request: ScrollHttpRequest, reply: FastifyReply) => {
    const ids = parseClearRequest(request.query, request.params.scrollId, request.body);
    const owner = accessOf(request).principalLabel;
    const removed =
      ids.length === 1 && ids[0] === '_all'
        ? store.removeAll(owner)
        : ids.flatMap((id) => {
            const scroll = store.get(id, owner);
            return scroll !== undefined && store.remove(id, owner) ? [scroll] : [];
          });
    for (const scroll of removed) clearViews(deps, scroll);
    return reply.code(removed.length > 0 ? 200 : 404).send({ succeeded: true, num_freed: removed.length });
  };
  app.delete('/_search/scroll', clear);
  app.delete('/_search/scroll/:scrollId', clear);
}

async function nextPage(
  deps: RoutedApiDeps,
  store: RoutedScrollStore,
  access: AccessContext,
  scroll: RoutedScroll,
  keepAliveMs: number | undefined,
  restTotalHitsAsInt: boolean,
  startedMs: number,
): Promise<string> {
  if (store.get(scroll.id, scroll.owner) === undefined) throw scrollMissing(scroll.id);
  // grants may have narrowed since the scroll was opened
  for (const name of scroll.routed.indices) if (!access.can('read', name)) throw forbiddenIndexError('read', name);
  if (keepAliveMs !== undefined) scroll.keepAliveMs = keepAliveMs;
  scroll.expiresAtMs = store.now() + scroll.keepAliveMs;
  const routed: RoutedSearch = {
    ...scroll.routed,
    deadlineMs: deps.routing.deadline(),
    aggregations: undefined,
    search: { ...scroll.routed.search, aggregations: undefined, restTotalHitsAsInt },
  };
  let parts: SearchPartResponse[];
  let typeOf: FieldTypeLookup;
  try {
    ({ parts, typeOf } = await searchParts(deps, routed, (url) => ({ keepAliveMs: scroll.keepAliveMs, id: scroll.views.get(url)!, after: scroll.after })));
  } catch (err) {
    // a node lost its view (restarted, or its index moved): the scroll cannot go on
    if ((err as { status?: number }).status === 404) store.remove(scroll.id, scroll.owner);
    throw (err as { status?: number }).status === 404 ? scrollMissing(scroll.id) : err;
  }
  const request = { ...routed.search.request, searchAfter: scroll.after };
  const result = mergeParts(deps, routed, parts, request);
  scroll.after = lastSortValues(result, scroll.after);
  return renderPage(result, routed, typeOf, scroll, startedMs);
}

/** Tells the nodes to drop their views of a scroll (best effort: they expire in any case). */
function clearViews(deps: RoutedApiDeps, scroll: RoutedScroll): void {
  for (const [url, id] of scroll.views) {
    void deps.client.call(url, `/_internal/scroll/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => undefined);
  }
}
