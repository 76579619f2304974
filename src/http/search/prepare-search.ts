/**
 * One search from request to response text, in two steps so that callers can tell the errors
 * found before any work (all the 4xx a search gives) from running it: `prepareSearch` parses and
 * checks against the indexes read, `executeSearch` runs and renders. `_search` and
 * `_async_search` both go through here.
 */
import type { AccessContext } from '../../auth/index.js';
import type { ApiDeps } from '../deps.js';
import type { QueryParams } from '../query-params.js';
import type { FieldTypeLookup } from './hit-fields.js';
import { toSearchRequest, type EsSearch } from './search-request.js';
import { renderSearchResponse } from './search-response.js';
import { checkAgainstMappings, fieldTypesOf, resolveScope, runSearch, type SearchScope } from './search-scope.js';

export interface PreparedSearch {
  search: EsSearch;
  scope: SearchScope;
  typeOf: FieldTypeLookup;
}

/** Parses a search and checks it against the indexes it reads: every 4xx a search can give, before any work. */
export function prepareSearch(deps: ApiDeps, access: AccessContext, params: QueryParams, index: string | undefined, body: Record<string, unknown> | undefined): PreparedSearch {
  const search = toSearchRequest(params, body, deps.config.queryTimeoutMs);
  const scope = resolveScope(deps.engine, access, index, params);
  const typeOf = fieldTypesOf(deps.engine);
  checkAgainstMappings(search, scope.indices, typeOf);
  return { search, scope, typeOf };
}

/** Runs a prepared search and renders the response text; `startedMs` on the performance.now() clock. */
export async function executeSearch(deps: ApiDeps, prepared: PreparedSearch, startedMs: number): Promise<string> {
  const { search, scope, typeOf } = prepared;
  const result = await runSearch(deps, scope.targets, search);
  return renderSearchResponse(result, { tookMs: Math.round(performance.now() - startedMs), shards: scope.indices.length, search, typeOf });
}
