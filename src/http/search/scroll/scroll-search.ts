/**
 * Opening and continuing a scroll. At opening, the search's segments are captured with each
 * growing memtable cut at its current doc count (`docLimit`), so that documents arriving later
 * are never seen and a flush does not disturb the view; each page then continues with
 * `search_after` from the last hit's sort values, the sort ending in `_doc` so that every
 * position is unique. Nothing is re-run from `from`.
 */
import { forbiddenIndexError, type AccessContext } from '../../../auth/index.js';
import type { SearchTarget, SortKey } from '../../../engine/index.js';
import type { ApiDeps } from '../../deps.js';
import type { EsSearch } from '../search-request.js';
import { renderSearchResponse } from '../search-response.js';
import { fieldTypesOf, runSearch, type SearchScope } from '../search-scope.js';
import { newScrollId, scrollMissing } from './scroll-id.js';
import type { ScrollContext, ScrollStore } from './scroll-store.js';

/** The sort a scroll pages on: the request's, with `_doc` last so that no two hits tie. */
function pagingSort(sort: readonly SortKey[]): { sort: SortKey[]; shown: number | undefined } {
  // the default sort (`_ts` desc, `_doc` desc) already ends in `_doc`
  if (sort.length === 0 || sort.some((k) => k.field === '_doc')) return { sort: [...sort], shown: undefined };
  return { sort: [...sort, { field: '_doc', order: sort[0]!.order }], shown: sort.length };
}

function lastSortValues(hits: ReadonlyArray<{ sortValues: unknown[] }>, previous: unknown[] | undefined): unknown[] | undefined {
  return hits.length === 0 ? previous : hits[hits.length - 1]!.sortValues;
}

export function openScroll(
  deps: ApiDeps,
  store: ScrollStore,
  access: AccessContext,
  scope: SearchScope,
  search: EsSearch,
  keepAliveMs: number,
  startedMs: number,
): string {
  store.assertCapacity();
  const { sort, shown } = pagingSort(search.request.sort);
  const targets: SearchTarget[] = scope.targets.map((t) => ({
    index: t.index,
    segment: t.segment,
    docLimit: Math.min(t.docLimit ?? t.segment.numDocs, t.segment.numDocs),
  }));
  const indices = scope.indices.map((name) => ({ name, uuid: deps.engine.requireShard(name).uuid }));
  const paged: EsSearch = { ...search, request: { ...search.request, sort } };
  const result = runSearch(deps, targets, paged);

  const context: ScrollContext = {
    id: newScrollId(),
    owner: access.principalLabel,
    indices,
    targets,
    search: paged,
    sortValuesShown: shown,
    keepAliveMs,
    expiresAtMs: 0,
    after: lastSortValues(result.hits, undefined),
  };
  store.touch(context);
  store.add(context);
  return renderSearchResponse(result, {
    tookMs: Math.round(performance.now() - startedMs),
    shards: indices.length,
    search: paged,
    typeOf: fieldTypesOf(deps.engine),
    scrollId: context.id,
    sortValuesShown: shown,
  });
}

/**
 * The scroll's segments with each reader swapped for the one the index holds now under the same
 * segment id, at the same position and with the same doc limit. A memtable flushed since the
 * scroll opened is the segment file of the same id, its docs in the same order, so the scroll
 * stops pinning the memtable; a segment file closed while its index was idle is reopened.
 */
function currentReaders(deps: ApiDeps, context: ScrollContext): SearchTarget[] {
  const current = new Map<string, SearchTarget>();
  for (const t of deps.engine.searchTargets(context.indices.map((i) => i.name))) current.set(t.segment.id, t);
  return context.targets.map((t) => {
    const now = current.get(t.segment.id);
    const limit = t.docLimit ?? t.segment.numDocs;
    if (now === undefined || now.segment === t.segment || now.segment.numDocs < limit) return t;
    return { index: t.index, segment: now.segment, docLimit: limit };
  });
}

export interface ContinueOptions {
  scrollId: string;
  keepAliveMs?: number;
  restTotalHitsAsInt: boolean;
}

export function continueScroll(deps: ApiDeps, store: ScrollStore, access: AccessContext, opts: ContinueOptions, startedMs: number): string {
  const context = store.get(opts.scrollId, access.principalLabel);
  if (context === undefined) throw scrollMissing(opts.scrollId);
  // a deleted index closed its segment files: the scroll cannot go on
  if (context.indices.some(({ name, uuid }) => deps.engine.shard(name)?.uuid !== uuid)) {
    store.remove(context.id, context.owner);
    throw scrollMissing(opts.scrollId);
  }
  // grants may have narrowed since the scroll was opened
  for (const { name } of context.indices) if (!access.can('read', name)) throw forbiddenIndexError('read', name);
  store.touch(context, opts.keepAliveMs);
  context.targets = currentReaders(deps, context);

  const nowMs = Date.now();
  const search: EsSearch = {
    ...context.search,
    restTotalHitsAsInt: opts.restTotalHitsAsInt,
    request: { ...context.search.request, searchAfter: context.after, deadlineMs: nowMs + deps.config.queryTimeoutMs },
  };
  const result = runSearch(deps, context.targets, search);
  context.after = lastSortValues(result.hits, context.after);
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
