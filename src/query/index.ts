/**
 * Queries: the one AST and its two front ends, the Lucene query-string syntax (`q=`) and the
 * Query DSL (`query` bodies). Pure parsing: nothing here imports the engine or HTTP.
 */
export * from './ast.js';
export { parseQueryString, type QueryStringOptions } from './query-string/index.js';
export { parseQueryDsl } from './dsl/index.js';
export { parseSimpleQueryString, type SimpleQueryStringOptions } from './simple-query-string/index.js';
export { queryToString } from './to-string.js';
export { resolveMinimumShouldMatch } from './min-should-match.js';
