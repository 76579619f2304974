/**
 * Feeds engine events to the svc_* metrics. For the per-document summaries
 * (`svc_document_field_count`, `svc_document_token_count`) the engine reports each document's
 * counts as it indexes it; one document in SAMPLE_EVERY is observed: summaries report quantiles,
 * which a sample estimates well at a sixteenth of the cost.
 */
import type { CompactionEvents, QueryPoolEvents } from '../engine/index.js';
import type { Metrics } from '../observability/index.js';

const SAMPLE_EVERY = 16;

export function documentMetricsRecorder(metrics: Metrics): (fields: number, tokens: number) => void {
  let seen = 0;
  return (fields, tokens) => {
    if (seen++ % SAMPLE_EVERY !== 0) return;
    metrics.documentFieldCount.observe(fields);
    metrics.documentTokenCount.observe(tokens);
  };
}

/** svc_compaction_* for merges and svc_delete_file_* for the files they replace. */
export function compactionMetrics(metrics: Metrics): CompactionEvents {
  return {
    started: (plan) => metrics.compactionCurrentCount.inc({ from: String(plan.from), to: String(plan.to) }),
    finished: (plan, docs) => {
      metrics.compactionCurrentCount.dec({ from: String(plan.from), to: String(plan.to) });
      metrics.compactionDocCount.inc({ level: String(plan.to) }, docs);
    },
    failed: (plan, cause) => {
      metrics.compactionCurrentCount.dec({ from: String(plan.from), to: String(plan.to) });
      metrics.compactionFailureTotal.inc({ cause });
      metrics.compactionFailure.inc({ cause });
    },
    fileDeleted: (durationNs, ok) => {
      metrics.deleteFileDurationNs.observe(durationNs);
      if (ok) metrics.deleteFileSuccessCount.inc();
      else metrics.deleteFileErrorCount.inc();
    },
  };
}

/** svc_query_queued_total, svc_query_queue_duration_ns and svc_query_rejected_total for the query threads. */
export function queryPoolMetrics(metrics: Metrics): QueryPoolEvents {
  return {
    queued: () => metrics.queryQueuedTotal.inc(),
    started: (queueDurationNs) => metrics.queryQueueDurationNs.observe(queueDurationNs),
    finished: () => undefined,
    panicked: () => metrics.queryTasksPanickedTotal.inc(),
    rejected: () => metrics.queryRejectedTotal.inc(),
  };
}
