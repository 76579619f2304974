/**
 * The `_cat` APIs for people and scripts: `indices` (only indexes the actor may read), `aliases`,
 * `count`, `health`, `templates` and `nodes`, rendered by cat-table.ts. Every index is green and
 * open with one primary and no replica, since one node holds each index whole.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { permittedIndices } from '../../auth/index.js';
import { wildcardToRegExp } from '../../engine/index.js';
import { accessOf } from '../auth-hook.js';
import type { ApiDeps } from '../deps.js';
import { boolParam, stringParam } from '../query-params.js';
import { ES_VERSION } from '../routes/root.js';
import { renderCat, type CatCell, type CatColumn } from './cat-table.js';
import { catalogNames, totalsOf } from './index-views.js';
import { engineHealthSource, type HealthSource } from './cluster-routes.js';
import { clusterNodes, percent, roleLetters } from './node-info.js';
import { expressionParts, targetIndices, type IndicesRequest } from './targets.js';
import { selectTemplates } from './template-routes.js';

export const INDICES_COLUMNS: CatColumn[] = [
  { name: 'health', aliases: ['h'], standard: true, description: 'current health status' },
  { name: 'status', aliases: ['s'], standard: true, description: 'open/close status' },
  { name: 'index', aliases: ['i', 'idx'], standard: true, description: 'index name' },
  { name: 'uuid', aliases: ['id'], standard: true, description: 'index uuid' },
  { name: 'pri', aliases: ['p', 'shards.primary', 'shardsPrimary'], kind: 'number', standard: true, description: 'number of primary shards' },
  { name: 'rep', aliases: ['r', 'shards.replica', 'shardsReplica'], kind: 'number', standard: true, description: 'number of replica shards' },
  { name: 'docs.count', aliases: ['dc', 'docsCount'], kind: 'number', standard: true, description: 'available docs' },
  { name: 'docs.deleted', aliases: ['dd', 'docsDeleted'], kind: 'number', standard: true, description: 'deleted docs' },
  { name: 'creation.date', aliases: ['cd'], kind: 'number', description: 'index creation date (millisecond value)' },
  { name: 'creation.date.string', aliases: ['cds'], description: 'index creation date (as string)' },
  { name: 'store.size', aliases: ['ss', 'storeSize'], kind: 'bytes', standard: true, description: 'store size of primaries & replicas' },
  { name: 'pri.store.size', kind: 'bytes', standard: true, description: 'store size of primaries' },
  { name: 'segments.count', aliases: ['sc', 'segmentsCount'], kind: 'number', description: 'number of segments' },
];

const ALIASES_COLUMNS: CatColumn[] = [
  { name: 'alias', aliases: ['a'], standard: true, description: 'alias name' },
  { name: 'index', aliases: ['i', 'idx'], standard: true, description: 'index alias points to' },
  { name: 'filter', aliases: ['f', 'fi'], standard: true, description: 'filter' },
  { name: 'routing.index', aliases: ['ri', 'routingIndex'], standard: true, description: 'index routing' },
  { name: 'routing.search', aliases: ['rs', 'routingSearch'], standard: true, description: 'search routing' },
  { name: 'is_write_index', aliases: ['w', 'isWriteIndex'], standard: true, description: 'write index' },
];

export const COUNT_COLUMNS: CatColumn[] = [
  { name: 'epoch', aliases: ['t', 'time'], kind: 'number', standard: true, description: 'seconds since 1970-01-01 00:00:00' },
  { name: 'timestamp', aliases: ['ts', 'hms', 'hhmmss'], standard: true, description: 'time in HH:MM:SS' },
  { name: 'count', aliases: ['dc', 'docs.count', 'docsCount'], kind: 'number', standard: true, description: 'the document count' },
];

const HEALTH_COLUMNS: CatColumn[] = [
  { name: 'epoch', aliases: ['t', 'time'], kind: 'number', standard: true, description: 'seconds since 1970-01-01 00:00:00' },
  { name: 'timestamp', aliases: ['ts', 'hms', 'hhmmss'], standard: true, description: 'time in HH:MM:SS' },
  { name: 'cluster', aliases: ['cl'], standard: true, description: 'cluster name' },
  { name: 'status', aliases: ['st'], standard: true, description: 'health status' },
  { name: 'node.total', aliases: ['nt', 'nodeTotal'], kind: 'number', standard: true, description: 'total number of nodes' },
  { name: 'node.data', aliases: ['nd', 'nodeData'], kind: 'number', standard: true, description: 'number of nodes that can store data' },
  { name: 'shards', aliases: ['t', 'sh', 'shards.total', 'shardsTotal'], kind: 'number', standard: true, description: 'total number of shards' },
  { name: 'pri', aliases: ['p', 'shards.primary', 'shardsPrimary'], kind: 'number', standard: true, description: 'number of primary shards' },
  { name: 'relo', aliases: ['r', 'shards.relocating', 'shardsRelocating'], kind: 'number', standard: true, description: 'number of relocating nodes' },
  { name: 'init', aliases: ['i', 'shards.initializing', 'shardsInitializing'], kind: 'number', standard: true, description: 'number of initializing nodes' },
  { name: 'unassign', aliases: ['u', 'shards.unassigned', 'shardsUnassigned'], kind: 'number', standard: true, description: 'number of unassigned shards' },
  { name: 'pending_tasks', aliases: ['pt', 'pendingTasks'], kind: 'number', standard: true, description: 'number of pending tasks' },
  { name: 'max_task_wait_time', aliases: ['mtwt', 'maxTaskWaitTime'], standard: true, description: 'wait time of longest task pending' },
  { name: 'active_shards_percent', aliases: ['asp', 'activeShardsPercent'], standard: true, description: 'active number of shards in percent' },
];

const TEMPLATES_COLUMNS: CatColumn[] = [
  { name: 'name', aliases: ['n'], standard: true, description: 'template name' },
  { name: 'index_patterns', aliases: ['t'], standard: true, description: 'template index patterns' },
  { name: 'order', aliases: ['o', 'p'], kind: 'number', standard: true, description: 'template application order/priority number' },
  { name: 'version', aliases: ['v'], kind: 'number', standard: true, description: 'version' },
  { name: 'composed_of', aliases: ['c'], standard: true, description: 'component templates comprising index template' },
];

const NODES_COLUMNS: CatColumn[] = [
  { name: 'id', aliases: ['nodeId'], description: 'unique node id' },
  { name: 'pid', aliases: ['p'], kind: 'number', description: 'process id' },
  { name: 'ip', aliases: ['i'], standard: true, description: 'ip address' },
  { name: 'port', aliases: ['po'], kind: 'number', description: 'bound transport port' },
  { name: 'http_address', aliases: ['http'], description: 'bound http address' },
  { name: 'version', aliases: ['v'], description: 'es version' },
  { name: 'heap.current', aliases: ['hc', 'heapCurrent'], kind: 'bytes', description: 'used heap' },
  { name: 'heap.percent', aliases: ['hp', 'heapPercent'], kind: 'number', standard: true, description: 'used heap ratio' },
  { name: 'heap.max', aliases: ['hm', 'heapMax'], kind: 'bytes', description: 'max configured heap' },
  { name: 'ram.current', aliases: ['rc', 'ramCurrent'], kind: 'bytes', description: 'used machine memory' },
  { name: 'ram.percent', aliases: ['rp', 'ramPercent'], kind: 'number', standard: true, description: 'used machine memory ratio' },
  { name: 'ram.max', aliases: ['rm', 'ramMax'], kind: 'bytes', description: 'total machine memory' },
  { name: 'cpu', kind: 'number', standard: true, description: 'recent cpu usage' },
  { name: 'load_1m', aliases: ['l'], kind: 'number', standard: true, description: '1m load avg' },
  { name: 'load_5m', aliases: ['l'], kind: 'number', standard: true, description: '5m load avg' },
  { name: 'load_15m', aliases: ['l'], kind: 'number', standard: true, description: '15m load avg' },
  { name: 'uptime', aliases: ['u'], description: 'node uptime' },
  { name: 'node.role', aliases: ['r', 'role', 'nodeRole'], standard: true, description: 'm:master eligible node, d:data node' },
  { name: 'master', aliases: ['m'], standard: true, description: '*:current master' },
  { name: 'name', aliases: ['n'], standard: true, description: 'node name' },
  { name: 'svc.roles', aliases: ['roles'], description: 'roles of the process: api, cache, storage, coordinator' },
];

function send(reply: FastifyReply, columns: CatColumn[], rows: Array<Record<string, CatCell>>, request: IndicesRequest): FastifyReply {
  const { contentType, body } = renderCat(columns, rows, request.query);
  return reply.type(contentType).send(body);
}

export function clock(nowMs: number): { epoch: number; timestamp: string } {
  return { epoch: Math.floor(nowMs / 1000), timestamp: new Date(nowMs).toISOString().slice(11, 19) };
}

function formatUptime(ms: number): string {
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) {
    if (ms >= size) return `${Number((ms / size).toFixed(1))}${unit}`;
  }
  return `${ms}ms`;
}

/** `_cat/health`: what `_cluster/health` reports, as a row. */
export async function catHealth(source: HealthSource, request: IndicesRequest, reply: FastifyReply): Promise<FastifyReply> {
  const [catalog, counts] = await Promise.all([source.catalog(), source.nodeCounts()]);
  const shards = catalog.indexNames().length;
  const row = {
    ...clock(Date.now()),
    cluster: source.config.clusterName,
    status: 'green',
    'node.total': counts.nodes,
    'node.data': counts.dataNodes,
    shards,
    pri: shards,
    relo: 0,
    init: 0,
    unassign: 0,
    pending_tasks: 0,
    max_task_wait_time: '-',
    active_shards_percent: '100.0%',
  };
  return send(reply, HEALTH_COLUMNS, [row], request);
}

export function registerCatRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const indices = async (request: IndicesRequest, reply: FastifyReply) => {
    // without an index, every authenticated actor may ask, and sees only what it may read
    const names =
      request.params.index === undefined
        ? permittedIndices(accessOf(request), 'read', deps.engine.indexNames())
        : targetIndices(deps, request, 'read', request.params.index);
    const health = stringParam(request.query, 'health');
    const rows: Array<Record<string, CatCell>> = [];
    for (const name of names) {
      const shard = deps.engine.shard(name);
      if (!shard || (health !== undefined && health !== 'green')) continue;
      const totals = totalsOf(shard);
      rows.push({
        health: 'green',
        status: 'open',
        index: name,
        uuid: shard.uuid,
        pri: 1,
        rep: 0,
        'docs.count': totals.docs,
        'docs.deleted': totals.deletedDocs,
        'creation.date': shard.createdAtMs,
        'creation.date.string': new Date(shard.createdAtMs).toISOString(),
        'store.size': totals.storeBytes,
        'pri.store.size': totals.storeBytes,
        'segments.count': totals.segments,
      });
    }
    return send(reply, INDICES_COLUMNS, rows, request);
  };
  app.get('/_cat/indices', indices);
  app.get('/_cat/indices/:index', indices);

  const aliases = async (request: IndicesRequest, reply: FastifyReply) => {
    const readable = new Set(permittedIndices(accessOf(request), 'read', (await catalogNames(deps)).indexNames()));
    const patterns = expressionParts(request.params.name).map((p) => wildcardToRegExp(p === '_all' ? '*' : p));
    const rows = (await deps.metastore.aliases.listAliases())
      .filter((r) => readable.has(r.index) && (patterns.length === 0 || patterns.some((p) => p.test(r.alias))))
      .map((r) => ({
        alias: r.alias,
        index: r.index,
        filter: r.filter ? '*' : '-',
        'routing.index': r.routing ?? '-',
        'routing.search': r.routing ?? '-',
        is_write_index: r.isWriteIndex === null ? '-' : String(r.isWriteIndex),
      }));
    return send(reply, ALIASES_COLUMNS, rows, request);
  };
  app.get('/_cat/aliases', aliases);
  app.get('/_cat/aliases/:name', aliases);

  const count = async (request: IndicesRequest, reply: FastifyReply) => {
    let total = 0;
    for (const name of targetIndices(deps, request, 'read', request.params.index)) total += deps.engine.shard(name)?.docCount ?? 0;
    return send(reply, COUNT_COLUMNS, [{ ...clock(Date.now()), count: total }], request);
  };
  app.get('/_cat/count', count);
  app.get('/_cat/count/:index', count);

  const health = engineHealthSource(deps);
  app.get('/_cat/health', (request: IndicesRequest, reply: FastifyReply) => catHealth(health, request, reply));

  const templates = async (request: IndicesRequest, reply: FastifyReply) => {
    const { templates: selected } = await selectTemplates(deps, request.params.name);
    const rows = selected.map((t) => ({
      name: t.name,
      index_patterns: `[${t.indexPatterns.join(', ')}]`,
      order: t.order,
      version: typeof t.body.version === 'number' ? t.body.version : null,
      composed_of: '',
    }));
    return send(reply, TEMPLATES_COLUMNS, rows, request);
  };
  app.get('/_cat/templates', templates);
  app.get('/_cat/templates/:name', templates);

  app.get('/_cat/nodes', async (request: IndicesRequest, reply: FastifyReply) => {
    const fullId = boolParam(request.query, 'full_id') ?? false;
    const { nodes } = await clusterNodes(deps);
    const rows = nodes.map((node): Record<string, CatCell> => {
      const f = node.figures;
      return {
        id: fullId ? node.id : node.id.slice(0, 4),
        pid: f?.pid ?? null,
        ip: node.ip,
        port: node.port,
        http_address: `${node.ip}:${node.port}`,
        version: ES_VERSION,
        'heap.current': f?.heapUsedBytes ?? null,
        'heap.percent': f ? percent(f.heapUsedBytes, f.heapMaxBytes) : null,
        'heap.max': f?.heapMaxBytes ?? null,
        'ram.current': f?.ramUsedBytes ?? null,
        'ram.percent': f ? percent(f.ramUsedBytes, f.ramTotalBytes) : null,
        'ram.max': f?.ramTotalBytes ?? null,
        cpu: f?.cpuPercent ?? null,
        load_1m: f ? f.load[0].toFixed(2) : null,
        load_5m: f ? f.load[1].toFixed(2) : null,
        load_15m: f ? f.load[2].toFixed(2) : null,
        uptime: formatUptime(Math.max(0, Date.now() - node.startedAtMs)),
        'node.role': roleLetters(node.roles),
        master: node.isMaster ? '*' : '-',
        name: node.name,
        'svc.roles': node.roles.join(','),
      };
    });
    return send(reply, NODES_COLUMNS, rows, request);
  });
}
