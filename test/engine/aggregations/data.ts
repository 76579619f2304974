/**
 * A generated data set for the aggregation tests: 60 log lines every 30 minutes from
 * 2024-03-30T00:00Z (across the Europe/Paris daylight-saving change of 2024-03-31 01:00Z), in two
 * indexes and three segments (a memtable and a segment file in `i1`, a memtable in `i2`).
 * The same rows as plain objects let each test state its expectation by a plain computation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IndexedDocument, IndexedField } from '../../../src/engine/document/index.js';
import { Memtable } from '../../../src/engine/memtable/index.js';
import { openSegment, writeSegment, type SegmentFileReader } from '../../../src/engine/segment/index.js';
import type { SearchTarget } from '../../../src/engine/index.js';
import { AggregationService, type AggResult, type AggSpec } from '../../../src/engine/aggregations/index.js';
import type { Query } from '../../../src/query/index.js';

export const T0 = Date.UTC(2024, 2, 30);
export const HALF_HOUR = 30 * 60_000;

export interface Row {
  i: number;
  ts: number;
  index: 'i1' | 'i2';
  /** a:30 b:18 c:6 d:6 */
  host: string;
  status: number;
  /** absent when i % 7 === 0 */
  bytes?: number;
  ok: boolean;
  /** absent when i % 4 === 3 */
  level?: string;
  /** i % 3: 0 → ['x', 'y'], 1 → ['y'], 2 → none */
  tags?: string[];
  line: string;
}

export const ROWS: Row[] = Array.from({ length: 60 }, (_, i): Row => {
  const r = i % 10;
  const row: Row = {
    i,
    ts: T0 + i * HALF_HOUR,
    index: i < 40 ? 'i1' : 'i2',
    host: r < 5 ? 'a' : r < 8 ? 'b' : r < 9 ? 'c' : 'd',
    status: [200, 200, 404, 500, 200][i % 5]!,
    ok: i % 3 === 0,
    line: `request ${i} ${i % 2 === 0 ? 'even' : 'odd'}`,
  };
  if (i % 7 !== 0) row.bytes = i * 10 + 0.5;
  if (i % 4 !== 3) row.level = ['info', 'warn', 'error'][i % 4]!;
  if (i % 3 !== 2) row.tags = i % 3 === 0 ? ['x', 'y'] : ['y'];
  return row;
});

function indexed(row: Row): IndexedDocument {
  const fields: IndexedField[] = [
    { name: '_line', type: 'text', values: [row.line] },
    { name: 'host', type: 'keyword', values: [row.host] },
    { name: 'status', type: 'long', values: [row.status] },
    { name: 'ok', type: 'boolean', values: [row.ok] },
  ];
  if (row.bytes !== undefined) fields.push({ name: 'bytes', type: 'double', values: [row.bytes] });
  if (row.level !== undefined) fields.push({ name: 'level', type: 'keyword', values: [row.level] });
  if (row.tags !== undefined) fields.push({ name: 'tags', type: 'keyword', values: row.tags });
  const { index: _index, ...source } = row;
  return { id: BigInt(1000 + row.i), lid: row.i + 1, ts: row.ts, source: JSON.stringify({ ...source, _ts: row.ts, _lid: row.i + 1 }), fields };
}

export function memtable(id: string, rows: readonly Row[]): Memtable {
  const m = new Memtable(id);
  for (const row of rows) m.add(indexed(row));
  return m;
}

export interface DataSet {
  targets: SearchTarget[];
  file: SegmentFileReader;
  close(): void;
}

/** i1: rows 0-19 in a memtable, rows 20-39 in a segment file; i2: rows 40-59 in a memtable. */
export async function dataSet(): Promise<DataSet> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-aggs-'));
  const filePath = path.join(dir, 'seg-b.seg');
  await writeSegment(memtable('seg-b', ROWS.slice(20, 40)), filePath);
  const file = openSegment(filePath, 'seg-b');
  return {
    targets: [
      { index: 'i1', segment: memtable('mem-a', ROWS.slice(0, 20)) },
      { index: 'i1', segment: file },
      { index: 'i2', segment: memtable('mem-c', ROWS.slice(40)) },
    ],
    file,
    close() {
      file.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const ALL: Query = { kind: 'match_all' };

export function service(memoryBytes = 64 << 20, maxBuckets = 10_000): AggregationService {
  return new AggregationService({ memoryBytes, maxBuckets });
}

/** Runs aggregations over the data set with a fresh service; also checks nothing stays charged. */
export function run(targets: readonly SearchTarget[], aggs: AggSpec[], query: Query = ALL, svc = service()): AggResult[] {
  const results = svc.run(targets, { query, aggs, nowMs: Date.UTC(2024, 3, 1) });
  if (svc.breaker.used !== svc.cache.bytes) throw new Error(`memory left charged after the request: ${svc.breaker.used - svc.cache.bytes} bytes`);
  return results;
}

export function rowsWhere(pred: (r: Row) => boolean): Row[] {
  return ROWS.filter(pred);
}

export function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** Spec helpers with the defaults the HTTP parser gives. */
export const terms = (name: string, field: string, extra: Partial<Extract<AggSpec, { type: 'terms' }>> = {}): AggSpec => ({
  type: 'terms',
  name,
  field,
  size: 10,
  minDocCount: 1,
  shardMinDocCount: 0,
  order: [{ by: '_count', desc: true }],
  showTermDocCountError: false,
  aggs: [],
  ...extra,
});

export const metric = (type: 'avg' | 'sum' | 'min' | 'max' | 'stats' | 'extended_stats' | 'value_count', name: string, field: string, extra: object = {}): AggSpec =>
  ({ type, name, field, ...extra }) as AggSpec;
