/**
 * The errors a Query DSL body can raise, worded as Elasticsearch words them so that clients
 * that match on messages keep working.
 */
import { BadRequestError, ParsingError } from '../../common/errors.js';

/** Elasticsearch's name for the JSON token a value starts with, as its messages print it. */
export function tokenName(value: unknown): string {
  if (value === null || value === undefined) return 'VALUE_NULL';
  if (Array.isArray(value)) return 'START_ARRAY';
  switch (typeof value) {
    case 'string':
      return 'VALUE_STRING';
    case 'number':
      return 'VALUE_NUMBER';
    case 'boolean':
      return 'VALUE_BOOLEAN';
    case 'object':
      return 'START_OBJECT';
    default:
      return 'VALUE_EMBEDDED_OBJECT';
  }
}

export function unknownQuery(name: string): ParsingError {
  return new ParsingError(`unknown query [${name}]`);
}

/** A key a hand-parsed query does not know. */
export function unsupportedKey(query: string, key: string): ParsingError {
  return new ParsingError(`[${query}] query does not support [${key}]`);
}

/** A key a query parsed by Elasticsearch's ObjectParser (match_all, ids) does not know. */
export function unknownField(query: string, key: string): ParsingError {
  return new ParsingError(`[${query}] unknown field [${key}]`, {}, 'x_content_parse_exception');
}

/** A known key holding a value of the wrong JSON type. */
export function wrongType(query: string, key: string, expected: string, value: unknown): ParsingError {
  return new ParsingError(
    `[${query}] failed to parse field [${key}]: expected ${expected} but found [${tokenName(value)}]`,
    {},
    'x_content_parse_exception',
  );
}

/** A known key holding a value of the right type that still cannot be read. */
export function invalidValue(query: string, key: string, value: unknown, why = 'invalid value'): ParsingError {
  return new ParsingError(
    `[${query}] failed to parse field [${key}]: ${why} [${String(value)}]`,
    {},
    'x_content_parse_exception',
  );
}

/** A query object with more than one key. */
export function malformed(query: string, found = 'FIELD_NAME'): ParsingError {
  return new ParsingError(`[${query}] malformed query, expected [END_OBJECT] but found [${found}]`);
}

export function multipleFields(query: string, first: string, second: string): ParsingError {
  return new ParsingError(`[${query}] query doesn't support multiple fields, found [${first}] and [${second}]`);
}

export function missing(query: string, what: string): ParsingError {
  return new ParsingError(`[${query}] ${what}`);
}

/** A valid Elasticsearch feature this service does not implement. */
export function notSupported(query: string, what: string): BadRequestError {
  return new BadRequestError(`[${query}] ${what} is not supported`, 'parsing_exception');
}
