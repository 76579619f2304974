/**
 * Async search (`_async_search`), Kibana's default search path: a search is submitted, answered
 * at once if it finishes within `wait_for_completion_timeout`, otherwise left running in the
 * background under an id; its result is kept until `keep_alive` runs out, for the actor that
 * submitted it only. The search itself is an ordinary `_search` (same parsing, access checks,
 * time limit and response), wrapped in the async envelope.
 */
export { AsyncSearchStore } from './async-search-store.js';
export { engineSearchRunner, registerAsyncSearchRoutes, type AsyncSearchRunner } from './async-search-route.js';
