/**
 * `GET /{index}/_settings` (optionally narrowed by setting names, `flat_settings`,
 * `include_defaults`) and `PUT /{index}/_settings` (dynamic settings, stored in the metastore;
 * the fixed ones are refused as Elasticsearch refuses static settings on an open index).
 */
import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../../common/index.js';
import { accessOf } from '../auth-hook.js';
import type { ApiDeps } from '../deps.js';
import { boolParam } from '../query-params.js';
import { jsonObjectBody } from '../request-body.js';
import { ACKNOWLEDGED, catalogNames, catalogSnapshot, settingsOf } from './index-views.js';
import { checkKnownSettings, filterSettings, isStaticSetting, isPlainObject, normalizeSettings, renderSettings, type FlatSettings } from './settings.js';
import { resolveTargets, targetIndices, type IndicesRequest } from './targets.js';

/** Defaults shown with `include_defaults=true`: the index settings that hold here whatever is stored. */
const DEFAULT_SETTINGS: FlatSettings = {
  'index.refresh_interval': '1s',
  'index.max_result_window': '10000',
  'index.mapping.total_fields.limit': '10000',
  'index.number_of_routing_shards': '1',
  'index.blocks.read_only': 'false',
  'index.blocks.write': 'false',
};

export function registerSettingsRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const get = async (request: IndicesRequest) => {
    const names = targetIndices(deps, request, 'read', request.params.index);
    const snapshot = await catalogSnapshot(deps);
    const flat = boolParam(request.query, 'flat_settings') ?? false;
    const withDefaults = boolParam(request.query, 'include_defaults') ?? false;
    const out: Record<string, unknown> = {};
    for (const name of names) {
      const shard = deps.engine.shard(name);
      if (!shard) continue;
      const settings = settingsOf(shard, snapshot);
      const entry: Record<string, unknown> = { settings: renderSettings(filterSettings(settings, request.params.name), flat) };
      if (withDefaults) {
        const defaults: FlatSettings = {};
        for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) if (!(key in settings)) defaults[key] = value;
        entry.defaults = renderSettings(filterSettings(defaults, request.params.name), flat);
      }
      out[name] = entry;
    }
    return out;
  };
  app.get('/_settings', get);
  app.get('/_settings/:name', get);
  app.get('/:index/_settings', get);
  app.get('/:index/_settings/:name', get);
  app.put('/:index/_settings', async (request: IndicesRequest) => putSettings(deps, request));
}

async function putSettings(deps: ApiDeps, request: IndicesRequest): Promise<typeof ACKNOWLEDGED> {
  const body = jsonObjectBody(request.body);
  if (body === undefined || Object.keys(body).length === 0) {
    throw new BadRequestError('Validation Failed: 1: no settings to update;', 'action_request_validation_exception');
  }
  const given = normalizeSettings(Object.keys(body).length === 1 && isPlainObject(body.settings) ? body.settings : body);
  checkKnownSettings(given);
  const fixed = Object.keys(given).filter(isStaticSetting);
  // the catalog's indexes: a cache node of a cluster changes the settings of indexes it does not hold as well
  const names = resolveTargets(await catalogNames(deps), accessOf(request), request.query, 'write', request.params.index);
  const snapshot = await catalogSnapshot(deps);
  if (fixed.length > 0) {
    const targets = names.map((n) => `[${n}/${deps.engine.shard(n)?.uuid ?? snapshot.records.get(n)?.uuid ?? ''}]`).join(', ');
    throw new BadRequestError(`Can't update non dynamic settings [[${fixed.join(', ')}]] for open indices [${targets}]`);
  }
  for (const name of names) {
    const stored = normalizeSettings(snapshot.records.get(name)?.settings ?? {});
    for (const [key, value] of Object.entries(given)) {
      if (value === null) delete stored[key];
      else stored[key] = value;
    }
    await deps.metastore.indexes.updateIndexSettings(name, stored);
  }
  return ACKNOWLEDGED;
}
