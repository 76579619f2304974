/**
 * Opening and continuing a scroll. At opening, the search's segments are captured with each
 * growing memtable cut at its current doc count (`docLimit`), so that documents arriving later
 * are never seen and a flush does not disturb the view; each page then continues with
 * `search_after` from the last hit's sort values, the sort ending in `_doc` so that every
 * position is unique. Nothing is re-run from `from`.
 */
import { forbiddenIndexError, type AccessContext } from '../../../auth/index.js';
import { SvcError } from '../../../common/index.js';
import type { Engine, SearchResult, SearchTarget, SortKey } from '../../../engine/index.js';
import type { ApiDeps } from '../../deps.js';
import type { EsSearch } from '../search-request.js';
import { renderSearchResponse } from '../search-response.js';
import { fieldTypesOf, runSearch, type SearchScope } from '../search-scope.js';
import { newScrollId, scrollMissing } from './scroll-id.js';
import type { ScrollContext, ScrollStore } from './scroll-store.js';

/** The sort a scroll pages on: the request's, with `_doc` last so that no two hits tie. */
export function pagingSort(sort: readonly SortKey[]): { sort: SortKey[]; shown: number | undefined } {
  // the default sort (`_ts` desc, `_doc` desc) already ends in `_doc`
  if (sort.length === 0 || sort.some((k) => k.field === '_doc')) return { sort: [...sort], shown: undefined };
  return { sort: [...sort, { field: '_doc', order: sort[0]!.order }], shown: sort.length };
}

export function lastSortValues(result: SearchResult, previous: unknown[] | undefined): unknown[] | undefined {
  return result.hits.length === 0 ? previous : result.hits[result.hits.length - 1]!.sortValues;
}

/** The targets pinned: each keeps its place (`order`, which `_doc` values encode) and its doc count now. */
export function pin(targets: readonly SearchTarget[]): SearchTarget[] {
  return targets.map((t, i) => ({
    ...t,
    order: t.order ?? i,
    docLimit: Math.min(t.docLimit ?? t.segment.numDocs, t.segment.numDocs),
  }));
}

export async function openScroll(
  deps: ApiDeps,
  store: ScrollStore,
  access: AccessContext,
  scope: SearchScope,
  search: EsSearch,
  keepAliveMs: number,
  startedMs: number,
): Promise<string> {
  store.reserve();
  let context: ScrollContext;
  let result: SearchResult;
  try {
    const { sort, shown } = pagingSort(search.request.sort);
    const targets = pin(scope.targets);
    const indices = scope.indices.map((name) => ({ name, uuid: deps.engine.requireShard(name).uuid }));
    const paged: EsSearch = { ...search, request: { ...search.request, sort } };
    result = await runSearch(deps, targets, paged);
    context = {
      id: newScrollId(),
      owner: access.principalLabel,
      indices,
      targets,
      search: paged,
      sortValuesShown: shown,
      keepAliveMs,
      expiresAtMs: 0,
      after: lastSortValues(result, undefined),
    };
  } catch (err) {
    store.release();
    throw err;
  }
  store.touch(context);
  store.add(context);
  return renderSearchResponse(result, {
    tookMs: Math.round(performance.now() - startedMs),
    shards: context.indices.length,
    search: context.search,
    typeOf: fieldTypesOf(deps.engine),
    scrollId: context.id,
    sortValuesShown: context.sortValuesShown,
  });
}

/**
 * The scroll's segments with each reader swapped for the one the index holds now under the same
 * segment id, keeping place and doc limit. A memtable flushed since the scroll opened is the
 * segment file of the same id, its docs in the same order, so the scroll stops pinning the
 * memtable; a segment file closed while its index was idle is reopened.
 */
export function currentReaders(engine: Engine, context: Pick<ScrollContext, 'indices' | 'targets'>): SearchTarget[] {
  const current = new Map<string, SearchTarget>();
  for (const t of engine.searchTargets(context.indices.map((i) => i.name))) current.set(t.segment.id, t);
  return context.targets.map((t) => {
    const now = current.get(t.segment.id);
    const limit = t.docLimit ?? t.segment.numDocs;
    if (now === undefined || now.segment === t.segment || now.segment.numDocs < limit) return t;
    return { ...now, order: t.order, docLimit: limit };
  });
}

export interface ContinueOptions {
  scrollId: string;
  keepAliveMs?: number;
  restTotalHitsAsInt: boolean;
}

export function continueScroll(deps: ApiDeps, store: ScrollStore, access: AccessContext, opts: ContinueOptions, startedMs: number): Promise<string> {
  const context = store.get(opts.scrollId, access.principalLabel);
  if (context === undefined) return Promise.reject(scrollMissing(opts.scrollId));
  // two requests on one scroll take turns, so that neither repeats the other's page
  const page = (context.busy ?? Promise.resolve()).catch(() => undefined).then(() => nextPage(deps, store, access, context, opts, startedMs));
  context.busy = page;
  return page;
}

async function nextPage(
  deps: ApiDeps,
  store: ScrollStore,
  access: AccessContext,
  context: ScrollContext,
  opts: ContinueOptions,
  startedMs: number,
): Promise<string> {
  if (store.get(context.id, context.owner) === undefined) throw scrollMissing(opts.scrollId);
  // a deleted index closed its segment files: the scroll cannot go on
  if (context.indices.some(({ name, uuid }) => deps.engine.shard(name)?.uuid !== uuid)) {
    store.remove(context.id, context.owner);
    throw scrollMissing(opts.scrollId);
  }
  // grants may have narrowed since the scroll was opened
  for (const { name } of context.indices) if (!access.can('read', name)) throw forbiddenIndexError('read', name);
  store.touch(context, opts.keepAliveMs);
  context.targets = currentReaders(deps.engine, context);

  const search: EsSearch = {
    ...context.search,
    // as in Elasticsearch, aggregations come with the first page only
    aggregations: undefined,
    restTotalHitsAsInt: opts.restTotalHitsAsInt,
    request: { ...context.search.request, searchAfter: context.after, deadlineMs: Date.now() + deps.config.queryTimeoutMs },
  };
  let result: SearchResult;
  try {
    result = await runSearch(deps, context.targets, search);
  } catch (err) {
    if (err instanceof SvcError) throw err;
    // a segment the scroll holds was closed under it (replaced by compaction long ago)
    deps.logger.warn({ err, scroll: context.id }, 'scroll lost its segments; it is cleared');
    store.remove(context.id, context.owner);
    throw scrollMissing(opts.scrollId);
  }
  context.after = lastSortValues(result, context.after);
  return renderSearchResponse(result, {
    tookMs: Math.round(performance.now() - startedMs),
    shards: context.indices.length,
    search,
    typeOf: fieldTypesOf(deps.engine),
    scrollId: context.id,
    sortValuesShown: context.sortValuesShown,
  });
}

/** Clears the actor's scrolls named by `ids` (`['_all']`: all of them); returns how many were open. */
export function clearScrolls(store: ScrollStore, access: AccessContext, ids: readonly string[]): number {
  if (ids.length === 1 && ids[0] === '_all') return store.removeAll(access.principalLabel);
  let freed = 0;
  for (const id of ids) if (store.remove(id, access.principalLabel)) freed++;
  return freed;
}
