import { ParsingError } from '../../common/errors.js';

/**
 * A query string that cannot be parsed: `query_shard_exception` naming the query, what went
 * wrong and the 0-based offset (a JavaScript string index) where it did.
 */
export function syntaxError(query: string, what: string, position: number): ParsingError {
  return new ParsingError(
    `Failed to parse query [${query}]: ${what} at position ${position}`,
    { position },
    'query_shard_exception',
  );
}
