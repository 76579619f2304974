import type { Query } from '../ast.js';
import type { JsonObject } from './values.js';

/** What a query kind's parser gets besides its body: a way to parse the queries it nests. */
export interface DslContext {
  parseQuery(body: unknown): Query;
}

/** Turns the object under a query kind's name (`{"term": <body>}`) into the AST. */
export type QueryKindParser = (body: JsonObject, ctx: DslContext) => Query;
