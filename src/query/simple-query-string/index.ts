/**
 * The `simple_query_string` syntax compiled to the query AST. Unlike the Lucene syntax it
 * never rejects input: whatever it cannot read is dropped or taken literally.
 */
export { parseSimpleQueryString, type SimpleQueryStringOptions } from './parser.js';
export { parseSimpleFlags, ALL_FLAGS } from './flags.js';
