/**
 * Which indexes an index API request covers, under the index rules of access control: naming an
 * index (or alias) the actor may not use with the action is a 403 before anything is looked up;
 * patterns and `_all` quietly cover only the indexes the actor may use.
 */
import type { FastifyRequest } from 'fastify';
import { assertNamedIndicesPermitted, permittedIndices, type AccessContext, type IndexAction } from '../../auth/index.js';
import { resolveIndices, type ResolveOptions } from '../../engine/index.js';
import { accessOf } from '../auth-hook.js';
import type { ApiDeps } from '../deps.js';
import { boolParam, type QueryParams } from '../query-params.js';
import type { IndexNames } from '../search/target-indices.js';

export type IndicesRequest = FastifyRequest<{ Params: Record<string, string | undefined>; Querystring: QueryParams }>;

/** The comma-separated parts of an index expression. */
export function expressionParts(expression: string | undefined): string[] {
  return (expression ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

/** `ignore_unavailable` and `allow_no_indices` from the URL, over the endpoint's defaults. */
export function resolveOptionsOf(params: QueryParams, defaults: ResolveOptions = {}): ResolveOptions {
  return {
    ignoreUnavailable: boolParam(params, 'ignore_unavailable') ?? defaults.ignoreUnavailable ?? false,
    allowNoIndices: boolParam(params, 'allow_no_indices') ?? defaults.allowNoIndices ?? true,
  };
}

export interface TargetOptions {
  defaults?: ResolveOptions;
  /** resolve patterns against index names only, not aliases (deletion) */
  indexesOnly?: boolean;
}

/** The existing indexes `expression` names that the actor may use with `action`, sorted. */
export function targetIndices(deps: ApiDeps, request: IndicesRequest, action: IndexAction, expression: string | undefined, opts: TargetOptions = {}): string[] {
  return resolveTargets(deps.engine, accessOf(request), request.query, action, expression, opts);
}

/** targetIndices over any list of names: an engine's, or the catalog's as the api role of a cluster reads it. */
export function resolveTargets(
  catalog: IndexNames,
  access: AccessContext,
  params: QueryParams,
  action: IndexAction,
  expression: string | undefined,
  opts: TargetOptions = {},
): string[] {
  assertNamedIndicesPermitted(access, action, expressionParts(expression));
  const aliases = opts.indexesOnly ? new Map<string, readonly string[]>() : catalog.aliasMap();
  const names = resolveIndices(expression, catalog.indexNames(), aliases, resolveOptionsOf(params, opts.defaults));
  return permittedIndices(access, action, names);
}
