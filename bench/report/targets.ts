/**
 * The performance targets (1,000,000 documents on a 2-core machine) and the pass/fail check of
 * a run against them. The ingest targets apply to ingest until flushed (the last bulk answer plus
 * `_flush`); query latency targets live with their query cases.
 */
import type { BenchResults } from './results.js';

export interface TargetCheck {
  name: string;
  /** e.g. ">= 20 MB/s" */
  target: string;
  measured: string;
  pass: boolean | null;
}

const GiB = 1024 ** 3;

export const TARGETS = {
  /** ingest until flushed: MB of complete `_bulk` bodies per second */
  ingestMbPerSec: 45,
  ingestDocsPerSec: 200_000,
  storedPerRawByte: 0.22,
  peakRssBytes: GiB,
} as const;

type Measured = Omit<BenchResults, 'targets'>;

export function checkTargets(r: Measured): TargetCheck[] {
  const out: TargetCheck[] = [];
  const atLeast = (name: string, value: number | null, limit: number, unit: string, digits: number) =>
    out.push({ name, target: `>= ${fmt(limit, digits)} ${unit}`, measured: value === null ? 'n/a' : `${fmt(value, digits)} ${unit}`, pass: value === null || Number.isNaN(value) ? null : value >= limit });
  const atMost = (name: string, value: number | null, limit: number, unit: string, digits: number) =>
    out.push({ name, target: `<= ${fmt(limit, digits)} ${unit}`, measured: value === null || Number.isNaN(value) ? 'n/a' : `${fmt(value, digits)} ${unit}`, pass: value === null || Number.isNaN(value) ? null : value <= limit });

  const flushed = r.ingest.untilFlushed;
  atLeast('ingest until flushed, MB/s of raw NDJSON', flushed?.mbPerSec ?? null, TARGETS.ingestMbPerSec, 'MB/s', 1);
  atLeast('ingest until flushed, docs/s', flushed?.docsPerSec ?? null, TARGETS.ingestDocsPerSec, 'docs/s', 0);
  atMost('stored bytes per raw byte (data dir after flush and compaction)', r.compaction.totalPerRawByte * 100, TARGETS.storedPerRawByte * 100, '%', 1);
  for (const q of r.queries) {
    if (q.targetMedianMs === undefined) continue;
    atMost(`median: ${q.title}`, q.errors > 0 ? null : q.medianMs, q.targetMedianMs, 'ms', 1);
  }
  const peak = r.memory.peakRssBytes;
  atMost('peak RSS of the service', peak === null ? null : peak / GiB, TARGETS.peakRssBytes / GiB, 'GiB', 2);
  return out;
}

function fmt(v: number, digits: number): string {
  return v.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
