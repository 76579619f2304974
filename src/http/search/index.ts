/**
 * The Elasticsearch search API: `_search`, `_count`, `_msearch` and scrolls. Requests are parsed
 * into the engine's SearchRequest (Query DSL or `q=`, one AST), run over the readable indexes'
 * segments, and rendered back in the Elasticsearch 7.10 response shape.
 */
export { registerSearchRoutes } from './search-route.js';
export { toSearchRequest, MAX_RESULT_WINDOW, MAX_KEEP_ALIVE_MS } from './search-request.js';
export type { EsSearch } from './search-request.js';
export { ScrollStore } from './scroll/index.js';
export type { ScrollContext } from './scroll/index.js';
