/**
 * Scrolls: a search opened with `scroll=<keep-alive>` keeps a consistent view of its segments
 * and pages through it with `search_after`; the store bounds how many are open and for how long,
 * and ties each to the actor that opened it.
 */
export { ScrollStore } from './scroll-store.js';
export type { ScrollContext, ScrollStoreOptions } from './scroll-store.js';
export { openScroll, continueScroll, clearScrolls, currentReaders, lastSortValues, pagingSort, pin } from './scroll-search.js';
export { registerScrollRoutes } from './scroll-route.js';
export { newScrollId, scrollMissing } from './scroll-id.js';
export { parseClearRequest, parseContinueRequest } from './scroll-request.js';
