/**
 * The Elasticsearch Query DSL (`query` bodies) compiled to the query AST: one file per query
 * kind, each reading its own object and failing with Elasticsearch's error types and wording
 * (`parsing_exception`, `x_content_parse_exception`).
 */
export { parseQueryDsl } from './parse-query.js';
