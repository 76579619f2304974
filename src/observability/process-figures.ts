/**
 * What this process reports about itself as a node: memory and load figures read from the
 * operating system and the V8 heap, as `_cat/nodes` shows them and heartbeats carry them.
 */
import os from 'node:os';
import v8 from 'node:v8';

export interface ProcessFigures {
  pid: number;
  heapUsedBytes: number;
  heapMaxBytes: number;
  ramUsedBytes: number;
  ramTotalBytes: number;
  cpuPercent: number;
  load: [number, number, number];
  uptimeMs: number;
}

export function processFigures(): ProcessFigures {
  const heap = v8.getHeapStatistics();
  const total = os.totalmem();
  const load = os.loadavg() as [number, number, number];
  const cpus = Math.max(1, os.cpus().length);
  return {
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
