/**
 * Cluster-level answers: `GET /_cluster/health[/{index}]` (green; the live nodes of the
 * membership table; a named index that does not exist waits until `timeout` and answers 408 red,
 * as Elasticsearch does; `wait_for_status` and the other wait conditions are met at once),
 * `GET|PUT /_cluster/settings` (see cluster-settings.ts) and
 * `GET /_cluster/state[/{metrics}[/{index}]]`: `master_node` (the coordinator lease holder),
 * `nodes` (the live nodes), `metadata` (indexes with settings, mappings and aliases; templates),
 * `version` and `blocks`.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { BadRequestError, IndexNotFoundError } from '../../common/index.js';
import { resolveIndices } from '../../engine/index.js';
import type { ApiDeps } from '../deps.js';
import { boolParam, stringParam } from '../query-params.js';
import { jsonObjectBody } from '../request-body.js';
import { clusterSettingsOf } from './cluster-settings.js';
import { catalogSnapshot, mappingOf, settingsOf } from './index-views.js';
import { renderSettings, type FlatSettings } from './settings.js';
import { expressionParts, type IndicesRequest } from './targets.js';
import { templateView } from './template-model.js';
import { parseTimeParam } from './units.js';
import { clusterNodes, nodeCounts, type ClusterNodes, type NodeCounts } from './node-info.js';
import type { Config } from '../../config/index.js';
import type { Lifecycle } from '../deps.js';
import type { IndexNames } from '../search/target-indices.js';

const DEFAULT_HEALTH_TIMEOUT_MS = 30_000;
const POLL_MS = 50;
const STATUSES = ['green', 'yellow', 'red'];

const STATE_METRICS = ['version', 'master_node', 'blocks', 'nodes', 'metadata'];

function healthBody(
  deps: Pick<ApiDeps, 'config'>,
  counts: NodeCounts,
  indexes: readonly string[],
  found: boolean,
  timedOut: boolean,
  level: string,
): Record<string, unknown> {
  const shards = found ? indexes.length : 0;
  const body: Record<string, unknown> = {
    cluster_name: deps.config.clusterName,
    status: found ? 'green' : 'red',
    timed_out: timedOut,
    number_of_nodes: counts.nodes,
    number_of_data_nodes: counts.dataNodes,
    active_primary_shards: shards,
    active_shards: shards,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: 0,
    delayed_unassigned_shards: 0,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number: 100.0,
  };
  if (found && (level === 'indices' || level === 'shards')) {
    const indices: Record<string, unknown> = {};
    for (const name of indexes) {
      const entry: Record<string, unknown> = {
        status: 'green',
        number_of_shards: 1,
        number_of_replicas: 0,
        active_primary_shards: 1,
        active_shards: 1,
        relocating_shards: 0,
        initializing_shards: 0,
        unassigned_shards: 0,
      };
      if (level === 'shards') {
        entry.shards = { '0': { status: 'green', primary_active: true, active_shards: 1, relocating_shards: 0, initializing_shards: 0, unassigned_shards: 0 } };
      }
      indices[name] = entry;
    }
    body.indices = indices;
  }
  return body;
}

/**
 * What health is answered from: the index names and aliases (the engine's in one process, the
 * catalog as the api role of a cluster reads it) and the counts of live nodes.
 */
export interface HealthSource {
  config: Config;
  lifecycle: Lifecycle;
  catalog(): Promise<IndexNames>;
  nodeCounts(): Promise<NodeCounts>;
}

/** The health source of a process holding every index. */
export function engineHealthSource(deps: ApiDeps): HealthSource {
  return { config: deps.config, lifecycle: deps.lifecycle, catalog: async () => deps.engine, nodeCounts: () => nodeCounts(deps) };
}

/** The indexes the health request covers, or undefined while a named one does not exist. */
function healthIndexes(catalog: IndexNames, expression: string | undefined): string[] | undefined {
  try {
    return resolveIndices(expression, catalog.indexNames(), catalog.aliasMap(), { allowNoIndices: true });
  } catch (err) {
    if (err instanceof IndexNotFoundError) return undefined;
    throw err;
  }
}

export async function clusterHealth(source: HealthSource, request: IndicesRequest, reply: FastifyReply): Promise<FastifyReply> {
  const waitFor = stringParam(request.query, 'wait_for_status');
  if (waitFor !== undefined && !STATUSES.includes(waitFor)) {
    throw new BadRequestError(`unknown cluster health status [${waitFor}]`);
  }
  const level = stringParam(request.query, 'level') ?? 'cluster';
  if (!['cluster', 'indices', 'shards'].includes(level)) throw new BadRequestError(`level must be one of [cluster, indices, shards] but was [${level}]`);
  const timeoutText = stringParam(request.query, 'timeout');
  const timeoutMs = timeoutText === undefined ? DEFAULT_HEALTH_TIMEOUT_MS : parseTimeParam(timeoutText, 'timeout');
  const deadline = Date.now() + timeoutMs;
  let indexes = healthIndexes(await source.catalog(), request.params.index);
  // the one condition that can be unmet here: a named index that does not exist yet
  while (indexes === undefined && Date.now() < deadline && !source.lifecycle.shuttingDown) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))));
    indexes = healthIndexes(await source.catalog(), request.params.index);
  }
  const counts = await source.nodeCounts();
  if (indexes === undefined) return reply.code(408).send(healthBody(source, counts, [], false, true, level));
  return reply.send(healthBody(source, counts, indexes, true, false, level));
}

const CLUSTER_DEFAULTS = (deps: ApiDeps): FlatSettings => ({
  'cluster.name': deps.config.clusterName,
  'node.name': deps.config.nodeName,
  'action.destructive_requires_name': 'false',
  'action.auto_create_index': 'true',
  'search.max_buckets': String(deps.config.maxBuckets),
  'xpack.security.enabled': String(deps.config.rbac.enabled),
});

export function registerClusterRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const health = engineHealthSource(deps);
  app.get('/_cluster/health', (request: IndicesRequest, reply: FastifyReply) => clusterHealth(health, request, reply));
  app.get('/_cluster/health/:index', (request: IndicesRequest, reply: FastifyReply) => clusterHealth(health, request, reply));

  const settings = clusterSettingsOf(deps.metastore);
  app.get('/_cluster/settings', async (request: IndicesRequest) => {
    const flat = boolParam(request.query, 'flat_settings') ?? false;
    const { persistent, transient } = await settings.view();
    const body: Record<string, unknown> = { persistent: renderSettings(persistent, flat), transient: renderSettings(transient, flat) };
    if (boolParam(request.query, 'include_defaults')) {
      const defaults = CLUSTER_DEFAULTS(deps);
      for (const key of [...Object.keys(persistent), ...Object.keys(transient)]) delete defaults[key];
      body.defaults = renderSettings(defaults, flat);
    }
    return body;
  });
  app.put('/_cluster/settings', async (request: IndicesRequest) => {
    const flat = boolParam(request.query, 'flat_settings') ?? false;
    const body = jsonObjectBody(request.body) ?? {};
    for (const key of Object.keys(body)) {
      if (key !== 'persistent' && key !== 'transient') throw new BadRequestError(`request [/_cluster/settings] contains unrecognized parameter: [${key}]`);
    }
    if (body.persistent === undefined && body.transient === undefined) {
      throw new BadRequestError('Validation Failed: 1: no settings to update;', 'action_request_validation_exception');
    }
    const applied = await settings.update({ persistent: body.persistent, transient: body.transient });
    return { acknowledged: true, persistent: renderSettings(applied.persistent, flat), transient: renderSettings(applied.transient, flat) };
  });

  const metadata = async (request: IndicesRequest) => {
    const clusterUuid = deps.config.clusterName;
    return { cluster_name: deps.config.clusterName, cluster_uuid: clusterUuid, metadata: await metadataSection(deps, request) };
  };
  app.get('/_cluster/state/metadata', metadata);
  app.get('/_cluster/state/metadata/:index', metadata);

  const state = async (request: IndicesRequest) => {
    const metrics = expressionParts(request.params.metric);
    const all = metrics.length === 0 || metrics.includes('_all');
    for (const metric of metrics) {
      if (metric !== '_all' && !STATE_METRICS.includes(metric)) {
        throw new BadRequestError(`request [${request.url.split('?')[0]}] contains unrecognized metric: [${metric}]`);
      }
    }
    const wants = (metric: string) => all || metrics.includes(metric);
    const cluster = await clusterNodes(deps);
    const body: Record<string, unknown> = { cluster_name: deps.config.clusterName, cluster_uuid: deps.config.clusterName };
    if (wants('version')) {
      body.version = cluster.nodes.length;
      body.state_uuid = stateUuid(cluster);
    }
    if (wants('master_node')) body.master_node = cluster.masterNodeId ?? null;
    if (wants('blocks')) body.blocks = {};
    if (wants('nodes')) {
      const nodes: Record<string, unknown> = {};
      for (const node of cluster.nodes) {
        nodes[node.id] = {
          name: node.name,
          ephemeral_id: createHash('sha256').update(`${node.id}/${node.startedAtMs}`).digest('base64url').slice(0, 22),
          transport_address: `${node.ip}:${node.port}`,
          attributes: { 'svc.roles': node.roles.join(',') },
        };
      }
      body.nodes = nodes;
    }
    if (wants('metadata')) body.metadata = await metadataSection(deps, request);
    return body;
  };
  app.get('/_cluster/state', state);
  app.get('/_cluster/state/:metric', state);
  app.get('/_cluster/state/:metric/:index', state);
}

/** Changes whenever the set of live nodes or the lease holder does. */
function stateUuid(cluster: ClusterNodes): string {
  const ids = cluster.nodes.map((n) => `${n.id}/${n.startedAtMs}`).sort();
  return createHash('sha256').update(JSON.stringify([cluster.masterNodeId ?? '', ids])).digest('base64url').slice(0, 22);
}

/** The `metadata` part of the cluster state: indexes (all, or those the `index` parameter names) and templates. */
async function metadataSection(deps: ApiDeps, request: IndicesRequest): Promise<Record<string, unknown>> {
  const expression = request.params.index;
  const names = expressionParts(expression).length === 0 ? deps.engine.indexNames() : resolveIndices(expression, deps.engine.indexNames(), deps.engine.aliasMap(), { ignoreUnavailable: true });
  const snapshot = await catalogSnapshot(deps);
  const flat = boolParam(request.query, 'flat_settings') ?? false;
  const indices: Record<string, unknown> = {};
  for (const name of names) {
    const shard = deps.engine.shard(name);
    if (!shard) continue;
    indices[name] = {
      version: 1,
      mapping_version: 1,
      settings_version: 1,
      aliases_version: 1,
      routing_num_shards: 1,
      state: 'open',
      settings: renderSettings(settingsOf(shard, snapshot), flat),
      mappings: mappingOf(shard, true),
      aliases: snapshot.aliases.filter((a) => a.index === name).map((a) => a.alias),
      primary_terms: { '0': 1 },
      in_sync_allocations: { '0': [] },
      rollover_info: {},
      system: false,
    };
  }
  const templates: Record<string, unknown> = {};
  for (const t of await deps.metastore.templates.listTemplates()) templates[t.name] = templateView(t, { flatSettings: flat, typed: true });
  const clusterUuid = deps.config.clusterName;
  return {
    cluster_uuid: clusterUuid,
    cluster_uuid_committed: true,
    templates,
    indices,
    'index-graveyard': { tombstones: [] },
  };
}
