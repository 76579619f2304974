/**
 * Which indexes a read request covers: naming an index the actor may not read is a 403 (checked
 * before resolution, so that a 404 cannot reveal what exists); the expression is then resolved
 * against the catalog and narrowed to what the actor may read.
 */
import { IndexNotFoundError } from '../../common/index.js';
import { resolveIndices, type Engine, type ResolveOptions } from '../../engine/index.js';
import { assertNamedIndicesPermitted, isConcreteIndexName, permittedIndices, type AccessContext } from '../../auth/index.js';
import { boolParam, stringParam, type QueryParams } from '../query-params.js';

export function resolveOptions(params: QueryParams): ResolveOptions {
  return {
    ignoreUnavailable: boolParam(params, 'ignore_unavailable') ?? false,
    allowNoIndices: boolParam(params, 'allow_no_indices') ?? true,
  };
}

/**
 * Every index is open and none is hidden, so `expand_wildcards` changes something only when it
 * leaves out `open` (and `all`): wildcards then match nothing, as in Elasticsearch.
 */
function wildcardsExpand(params: QueryParams): boolean {
  const value = stringParam(params, 'expand_wildcards');
  if (value === undefined) return true;
  const states = value.split(',').map((s) => s.trim());
  return states.includes('open') || states.includes('all');
}

/** The names a read expression resolves against: an engine's, or the catalog's as the api role of a cluster reads it. */
export type IndexNames = Pick<Engine, 'indexNames' | 'aliasMap'>;

export function readableIndices(engine: IndexNames, access: AccessContext, expression: string | undefined, params: QueryParams): string[] {
  let parts = (expression ?? '').split(',').filter((p) => p.length > 0);
  assertNamedIndicesPermitted(access, 'read', parts);
  const options = resolveOptions(params);
  if (!wildcardsExpand(params)) {
    parts = parts.filter((p) => isConcreteIndexName(p));
    if (parts.length === 0) {
      if (options.allowNoIndices === false) throw new IndexNotFoundError(expression || '_all');
      return [];
    }
    expression = parts.join(',');
  }
  const names = resolveIndices(expression, engine.indexNames(), engine.aliasMap(), options);
  return permittedIndices(access, 'read', names);
}
