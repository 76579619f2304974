/**
 * `GET /_mapping`, `GET /{index}/_mapping` (and `_mappings`): each index's fields in Elasticsearch form, at most
 * 1,000, in order of first occurrence. `PUT /{index}/_mapping`: explicit types for fields not
 * seen yet; a field that has another type is a 400 and nothing is changed on any index. The
 * change is in the metastore before the answer.
 */
import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../../common/index.js';
import type { ApiDeps } from '../deps.js';
import { boolParam } from '../query-params.js';
import { jsonObjectBody } from '../request-body.js';
import { ACKNOWLEDGED, mappingOf } from './index-views.js';
import { fieldsOfMapping } from './mapping-convert.js';
import { targetIndices, type IndicesRequest } from './targets.js';

export function registerMappingRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const get = async (request: IndicesRequest) => {
    const typed = boolParam(request.query, 'include_type_name') ?? false;
    const out: Record<string, unknown> = {};
    for (const name of targetIndices(deps, request, 'read', request.params.index)) {
      const shard = deps.engine.shard(name);
      if (shard) out[name] = { mappings: mappingOf(shard, typed) };
    }
    return out;
  };
  // `_mappings` is Elasticsearch's other spelling of each route
  for (const mapping of ['_mapping', '_mappings']) {
    app.get(`/${mapping}`, get);
    app.get(`/:index/${mapping}`, get);
    app.put(`/:index/${mapping}`, async (request: IndicesRequest) => putMapping(deps, request));
  }
}

/** The fields a `PUT /{index}/_mapping` body declares. */
export function mappingUpdateOf(requestBody: unknown): ReturnType<typeof fieldsOfMapping> {
  const body = jsonObjectBody(requestBody);
  if (body === undefined) throw new BadRequestError('Validation Failed: 1: mapping source is missing;', 'action_request_validation_exception');
  return fieldsOfMapping(body, true);
}

async function putMapping(deps: ApiDeps, request: IndicesRequest): Promise<typeof ACKNOWLEDGED> {
  const fields = mappingUpdateOf(request.body);
  const shards = targetIndices(deps, request, 'write', request.params.index).map((name) => deps.engine.requireShard(name));
  // every index is checked before any changes, so that a conflict on one changes none
  const updates = shards.map((shard) => {
    const update = shard.mapping.update();
    for (const [name, type, parent] of fields) update.declare(name, type, parent);
    return update;
  });
  for (const update of updates) update.commit();
  await Promise.all(shards.map((shard) => shard.commitMappingIfChanged()));
  return ACKNOWLEDGED;
}
