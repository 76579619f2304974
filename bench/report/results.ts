/** The shape of a benchmark run's JSON results file. */
import type { DiskUsage, MemorySample, PhaseCpu, PhaseThreadCpu, SettleResult } from '../harness/index.js';
import type { CompactionResult, FlushResult, IngestResult, SweepPoint, Throughput } from '../ingest/index.js';
import type { QueryCaseResult, UnderIngestResult } from '../queries/index.js';
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
  ingest: IngestResult & {
    /** documents over (last bulk answer + `_flush`); null without a successful flush */
    untilFlushed: Throughput | null;
    /** what a count found right after the last bulk answer */
    visibleAtOnceDocs: number | null;
    /** what a count found after the flush, polled until it saw every document */
    visibleDocs: number | null;
    visibleAfterMs: number | null;
    cpu: PhaseCpu;
    threads: PhaseThreadCpu;
  };
  /** the --concurrency-sweep runs, in the order given */
  sweep: SweepPoint[];
  queriesCpu: PhaseCpu;
  flush: FlushResult;
  /** CPU per thread of the service while `_flush` ran */
  flushThreads: PhaseThreadCpu;
  settle: SettleResult;
  queries: QueryCaseResult[];
  /** the queries timed again while ingest ran (`--queries-under-ingest`) */
  underIngest?: UnderIngestResult;
  memory: { peakRssBytes: number | null; highWaterMarkBytes: number | null; peakSampledRssBytes: number | null; rssAfterIngestBytes: number | null; rssAfterQueriesBytes: number | null; timeline: MemorySample[] };
  /** the data directory once the flushed files are written (quick files: see compression.ts) */
  diskAfterFlush: DiskUsage & { totalPerRawByte: number };
  /** the index merged into one compact segment, and the data directory after it */
  compaction: CompactionResult;
  /** the data directory after shutdown (the under-ingest index included when there is one) */
  disk: DiskUsage & { totalPerRawByte: number; segmentsPerRawByte: number; walPerRawByte: number };
  targets: TargetCheck[];
  profiles?: string[];
}
