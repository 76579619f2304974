/**
 * Which indexes a read request covers: naming an index the actor may not read is a 403 (checked
 * before resolution, so that a 404 cannot reveal what exists); the expression is then resolved
 * against the catalog and narrowed to what the actor may read.
 */
import { resolveIndices, type Engine, type ResolveOptions } from '../../engine/index.js';
import { assertNamedIndicesPermitted, permittedIndices, type AccessContext } from '../../auth/index.js';
import { boolParam, type QueryParams } from '../query-params.js';

export function resolveOptions(params: QueryParams): ResolveOptions {
  return {
    ignoreUnavailable: boolParam(params, 'ignore_unavailable') ?? false,
    allowNoIndices: boolParam(params, 'allow_no_indices') ?? true,
  };
}

export function readableIndices(engine: Engine, access: AccessContext, expression: string | undefined, params: QueryParams): string[] {
  const parts = (expression ?? '').split(',').filter((p) => p.length > 0);
  assertNamedIndicesPermitted(access, 'read', parts);
  const names = resolveIndices(expression, engine.indexNames(), engine.aliasMap(), resolveOptions(params));
  return permittedIndices(access, 'read', names);
}
