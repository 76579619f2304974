/**
 * What this process says about itself as an Elasticsearch node: a stable node id, its address,
 * memory and load figures read from the operating system and the V8 heap.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import v8 from 'node:v8';
import type { Config } from '../../config/index.js';

export interface NodeFigures {
  id: string;
  ip: string;
  port: number;
  pid: number;
  heapUsedBytes: number;
  heapMaxBytes: number;
  ramUsedBytes: number;
  ramTotalBytes: number;
  cpuPercent: number;
  load: [number, number, number];
  uptimeMs: number;
}

/** Node ids are 22 url-safe characters in Elasticsearch; ours is derived from the node name so that it is stable. */
export function nodeId(config: Config): string {
  return createHash('sha256').update(`${config.clusterName}/${config.nodeName}`).digest('base64url').slice(0, 22);
}

function hostIp(host: string): string {
  if (host === '0.0.0.0' || host === '' || host === 'localhost') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

export function nodeFigures(config: Config, port: number): NodeFigures {
  const heap = v8.getHeapStatistics();
  const total = os.totalmem();
  const load = os.loadavg() as [number, number, number];
  const cpus = Math.max(1, os.cpus().length);
  return {
    id: nodeId(config),
    ip: hostIp(config.host),
    port,
    pid: process.pid,
    heapUsedBytes: heap.used_heap_size,
    heapMaxBytes: heap.heap_size_limit,
    ramUsedBytes: total - os.freemem(),
    ramTotalBytes: total,
    cpuPercent: Math.min(100, Math.round((load[0] / cpus) * 100)),
    load,
    uptimeMs: Math.round(process.uptime() * 1000),
  };
}

export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}
