/**
 * The nodes of the cluster as Elasticsearch describes its nodes: each live row of the membership
 * table with the figures its last heartbeat carried, this process with its figures of now. Role
 * letters follow Elasticsearch: a cache node holds data (`d`), a coordinator is master-eligible
 * (`m`), a process with neither answers `-` (a coordinating-only node in Elasticsearch's terms).
 */
import type { ClusterView } from '../../cluster/index.js';
import type { NodeRecord } from '../../metastore/index.js';
import { processFigures, type ProcessFigures } from '../../observability/index.js';
import type { ApiDeps } from '../deps.js';

export interface ClusterNode {
  id: string;
  name: string;
  roles: readonly string[];
  ip: string;
  port: number;
  figures: ProcessFigures | undefined;
  startedAtMs: number;
  isMaster: boolean;
}

export interface ClusterNodes {
  nodes: ClusterNode[];
  masterNodeId: string | undefined;
}

/** The live nodes, this one first, then by id; this one is listed even while its heartbeat fails. */
export async function clusterNodes(deps: ApiDeps): Promise<ClusterNodes> {
  const view: ClusterView = await deps.cluster.view();
  const self = deps.cluster;
  const others = view.nodes.filter((n) => n.id !== self.nodeId).map((n) => fromRecord(n, view.masterNodeId));
  const selfAddress = hostAndPort(self.advertisedUrl);
  const selfNode: ClusterNode = {
    id: self.nodeId,
    name: deps.config.nodeName,
    roles: self.roles,
    ...selfAddress,
    figures: processFigures(),
    startedAtMs: Date.now() - Math.round(process.uptime() * 1000),
    isMaster: view.masterNodeId === self.nodeId,
  };
  return { nodes: [selfNode, ...others], masterNodeId: view.masterNodeId };
}

/** How many nodes are live, and how many of them hold data. */
export interface NodeCounts {
  nodes: number;
  dataNodes: number;
}

/** The counts health reports: one read of the membership table (health names no lease holder); this node counts even while its heartbeat fails. */
export async function nodeCounts(deps: Pick<ApiDeps, 'metastore' | 'cluster'>): Promise<NodeCounts> {
  const others = (await deps.metastore.nodes.liveNodes()).filter((n) => n.id !== deps.cluster.nodeId);
  return { nodes: others.length + 1, dataNodes: others.filter(isDataNode).length + (isDataNode(deps.cluster) ? 1 : 0) };
}

export function roleLetters(roles: readonly string[]): string {
  const letters = [roles.includes('cache') ? 'd' : '', roles.includes('coordinator') ? 'm' : ''].join('');
  return letters === '' ? '-' : letters;
}

export function isDataNode(node: { roles: readonly string[] }): boolean {
  return node.roles.includes('cache');
}

function fromRecord(record: NodeRecord, masterNodeId: string | undefined): ClusterNode {
  return {
    id: record.id,
    name: record.name,
    roles: record.roles,
    ...hostAndPort(record.url),
    figures: figuresOf(record.stats),
    startedAtMs: record.startedAtMs,
    isMaster: record.id === masterNodeId,
  };
}

/** The heartbeat's figures when they have the expected shape (a node of another version may differ). */
function figuresOf(stats: Record<string, unknown>): ProcessFigures | undefined {
  const numbers = ['pid', 'heapUsedBytes', 'heapMaxBytes', 'ramUsedBytes', 'ramTotalBytes', 'cpuPercent', 'uptimeMs'];
  if (!numbers.every((k) => typeof stats[k] === 'number')) return undefined;
  if (!Array.isArray(stats.load) || stats.load.length !== 3 || !stats.load.every((n) => typeof n === 'number')) return undefined;
  return stats as unknown as ProcessFigures;
}

function hostAndPort(url: string): { ip: string; port: number } {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
    return { ip: hostIp(host), port };
  } catch {
    return { ip: '-', port: 0 };
  }
}

function hostIp(host: string): string {
  if (host === '0.0.0.0' || host === '' || host === 'localhost') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}
