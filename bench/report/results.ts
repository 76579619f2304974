/** The shape of a benchmark run's JSON results file. */
import type { DiskUsage, MemorySample, PhaseCpu, SettleResult } from '../harness/index.js';
import type { IngestResult } from '../ingest/index.js';
import type { QueryCaseResult } from '../queries/index.js';
import type { QueryWords, TallyCounts } from '../corpus/index.js';
import type { TargetCheck } from './targets.js';

export interface BenchResults {
  startedAt: string;
  environment: { node: string; platform: string; cpus: number; cpuModel: string; totalMemoryBytes: number; gitCommit: string | null; loadAverageAtStart: number[] };
  options: Record<string, unknown>;
  corpus: {
    docs: number;
    seed: number;
    batches: number;
    documentBytes: number;
    totalBytes: number;
    avgDocumentLineBytes: number;
    generateMs: number;
    queryWords: QueryWords;
    expected: TallyCounts;
  };
  server: { startMs: number; stopMs: number; exitCode: number | null; signal: string | null; killed: boolean; loggedErrors: number; firstLoggedError?: string };
  ingest: IngestResult & { visibleDocs: number | null; visibleAfterMs: number | null; cpu: PhaseCpu };
  queriesCpu: PhaseCpu;
  flush: { available: boolean; status: number | null; ms: number | null; error?: string };
  settle: SettleResult;
  queries: QueryCaseResult[];
  memory: { peakRssBytes: number | null; highWaterMarkBytes: number | null; peakSampledRssBytes: number | null; rssAfterIngestBytes: number | null; rssAfterQueriesBytes: number | null; timeline: MemorySample[] };
  disk: DiskUsage & { totalPerRawByte: number; segmentsPerRawByte: number; walPerRawByte: number };
  targets: TargetCheck[];
  profiles?: string[];
}
