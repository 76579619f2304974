/**
 * Feeds the per-document summaries `svc_document_field_count` and `svc_document_token_count`.
 * One document in SAMPLE_EVERY is measured: the summaries report quantiles, which a sample
 * estimates well, and tokenizing every `_line` a second time would cost ingest throughput.
 */
import { tokenize, type IndexedDocument } from '../engine/index.js';
import type { Metrics } from '../observability/index.js';

const SAMPLE_EVERY = 16;

export function documentMetricsRecorder(metrics: Metrics): (doc: IndexedDocument) => void {
  let seen = 0;
  return (doc) => {
    if (seen++ % SAMPLE_EVERY !== 0) return;
    metrics.documentFieldCount.observe(doc.fields.length);
    let tokens = 0;
    for (const field of doc.fields) {
      if (field.type !== 'text') continue;
      for (const value of field.values) tokens += tokenize(String(value)).length;
    }
    metrics.documentTokenCount.observe(tokens);
  };
}
