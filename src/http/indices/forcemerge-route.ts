/**
 * `POST /_forcemerge` and `/{index}/_forcemerge`: merges each index's segments into one, which
 * drops deleted and replaced documents from the files (`only_expunge_deletes=true`: rewrites
 * only the segments holding such documents). Answers when the merges are done.
 */
import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../deps.js';
import { boolParam } from '../query-params.js';
import { targetIndices, type IndicesRequest } from './targets.js';

export function registerForceMergeRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const handler = async (request: IndicesRequest) => {
    const indices = targetIndices(deps, request, 'write', request.params.index ?? '_all');
    const onlyExpungeDeletes = boolParam(request.query, 'only_expunge_deletes') ?? false;
    for (const name of indices) await deps.engine.forceMerge(name, onlyExpungeDeletes);
    return { _shards: { total: indices.length, successful: indices.length, failed: 0 } };
  };
  app.post('/_forcemerge', handler);
  app.post('/:index/_forcemerge', handler);
}
