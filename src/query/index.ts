/**
 * Queries: the one AST and its two front ends, the Lucene query-string syntax (`q=`) and the
 * Query DSL (`query` bodies). Pure parsing: nothing here imports the engine or HTTP.
 */
export * from './ast.js';
