/**
 * The Lucene query-string syntax (`q=` and the `query_string` query) compiled to the query AST:
 * a lexer with Lucene's three lexical states and a recursive-descent parser with Lucene's
 * clause rules (see parser.ts for how AND, OR and the default operator combine).
 */
export { parseQueryString, type QueryStringOptions } from './parser.js';
