/**
 * Which indexes a read request covers: the expression resolved against the catalog, then
 * narrowed to what the actor may read. Patterns and `_all` silently drop unreadable indexes;
 * naming an unreadable index outright is a 403.
 */
import { ForbiddenError } from '../../common/index.js';
import { resolveIndices, type ResolveOptions } from '../../engine/index.js';
import type { Engine } from '../../engine/index.js';
import { boolParam, type QueryParams } from '../query-params.js';
import type { IndexAccess } from '../deps.js';

export function resolveOptions(params: QueryParams): ResolveOptions {
  return {
    ignoreUnavailable: boolParam(params, 'ignore_unavailable') ?? false,
    allowNoIndices: boolParam(params, 'allow_no_indices') ?? true,
  };
}

export function readableIndices(engine: Engine, access: IndexAccess, expression: string | undefined, params: QueryParams): string[] {
  const names = resolveIndices(expression, engine.indexNames(), engine.aliasMap(), resolveOptions(params));
  const concrete = new Set((expression ?? '').split(',').filter((p) => p && !p.includes('*') && p !== '_all'));
  const out: string[] = [];
  for (const name of names) {
    if (access.can('read', name)) out.push(name);
    else if (concrete.has(name)) throw new ForbiddenError(`action [indices:data/read/search] is unauthorized for this actor on indices [${name}]`);
  }
  return out;
}
