/**
 * Test support: a worker thread that shares a reader cache budget and keeps filling its cache
 * (gets and sets of entries of random sizes), checking after every step that the node's total
 * never passes the budget. Posts what it saw, then exits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ReaderCacheBudget, useReaderCacheBudget } from '../../src/engine/segment/index.js';

export interface FillerData {
  buffer: SharedArrayBuffer;
  slot: number;
  seed: number;
  steps: number;
  maxEntryBytes: number;
}

export interface FillerReport {
  steps: number;
  kept: number;
  refused: number;
  hits: number;
  maxUsedBytes: number;
  /** steps after which the total was over the budget, or this thread's count differed from its slot's */
  violations: string[];
}

const data = workerData as FillerData;
const budget = ReaderCacheBudget.attach(data.buffer);
const cache = useReaderCacheBudget(budget, data.slot);
const spaces = [cache.space<number, Uint8Array>(), cache.space<number, Uint8Array>(), cache.space<number, Uint8Array>()];
let a = data.seed >>> 0;
const random = () => {
  a = (a + 0x6d2b79f5) >>> 0;
  let t = a;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const report: FillerReport = { steps: data.steps, kept: 0, refused: 0, hits: 0, maxUsedBytes: 0, violations: [] };
for (let step = 0; step < data.steps; step++) {
  const space = spaces[Math.floor(random() * spaces.length)]!;
  const key = Math.floor(random() * 300);
  const hit = space.get(key);
  if (hit !== undefined) {
    report.hits++;
    if (hit[0] !== (key & 0xff)) report.violations.push(`step ${step}: entry ${key} holds another value`);
  } else {
    const value = new Uint8Array(1 + Math.floor(random() * data.maxEntryBytes)).fill(key & 0xff);
    if (space.set(key, value, value.byteLength)) report.kept++;
    else report.refused++;
  }
  const used = budget.usedBytes;
  report.maxUsedBytes = Math.max(report.maxUsedBytes, used);
  if (used > budget.limitBytes && report.violations.length < 10) report.violations.push(`step ${step}: ${used} bytes held, budget ${budget.limitBytes}`);
  if (cache.heldBytes !== budget.slotBytes(data.slot) && report.violations.length < 10) report.violations.push(`step ${step}: thread holds ${cache.heldBytes}, slot says ${budget.slotBytes(data.slot)}`);
}
parentPort!.postMessage(report);
