/**
 * Aggregations over the whole corpus: a `date_histogram` per minute, a top-10 `terms` on a
 * keyword field and `percentiles` of a numeric field. Answers are checked for consistency with
 * the corpus (bucket counts add up to the documents), not against hand-made numbers.
 */
import type { HttpRequest } from '../harness/index.js';
import type { QueryCase, QueryContext } from './query-case.js';
import { reportedTotal } from './checks.js';

function aggSearch(ctx: QueryContext, aggs: Record<string, unknown>): HttpRequest {
  return {
    method: 'POST',
    path: `/${encodeURIComponent(ctx.index)}/_search`,
    body: JSON.stringify({ size: 0, track_total_hits: true, aggs }),
    contentType: 'application/json',
  };
}

interface Bucket {
  doc_count: number;
}
type AggAnswer = { aggregations?: Record<string, { buckets?: Bucket[]; sum_other_doc_count?: number; values?: Record<string, number | null> }> };

function bucketsOf(body: unknown, name: string): Bucket[] | undefined {
  return (body as AggAnswer).aggregations?.[name]?.buckets;
}

export const aggregationCases: readonly QueryCase[] = [
  {
    name: 'agg-date-histogram-minute',
    title: 'date_histogram per minute, all docs',
    request: (ctx) => aggSearch(ctx, { per_minute: { date_histogram: { field: '_ts', fixed_interval: '1m' } } }),
    check: (body) => {
      const buckets = bucketsOf(body, 'per_minute');
      const total = reportedTotal(body)?.value;
      if (!buckets || total === undefined) return 'no buckets or no total';
      const sum = buckets.reduce((n, b) => n + b.doc_count, 0);
      return sum === total ? undefined : `buckets add up to ${sum}, total is ${total}`;
    },
  },
  {
    name: 'agg-terms-top10',
    title: 'top-10 terms of a keyword field',
    request: (ctx) => aggSearch(ctx, { services: { terms: { field: 'service', size: 10 } } }),
    check: (body) => {
      const agg = (body as AggAnswer).aggregations?.services;
      if (!agg?.buckets || agg.buckets.length !== 10) return `expected 10 buckets, got ${agg?.buckets?.length ?? 'none'}`;
      for (let i = 1; i < agg.buckets.length; i++) if (agg.buckets[i]!.doc_count > agg.buckets[i - 1]!.doc_count) return 'buckets not by count';
      return undefined;
    },
  },
  {
    name: 'agg-percentiles',
    title: 'percentiles of a numeric field',
    request: (ctx) => aggSearch(ctx, { latency: { percentiles: { field: 'latency_ms', percents: [50, 95, 99] } } }),
    check: (body) => {
      const values = (body as AggAnswer).aggregations?.latency?.values;
      if (!values) return 'no percentile values';
      const p50 = values['50.0'];
      const p99 = values['99.0'];
      if (typeof p50 !== 'number' || typeof p99 !== 'number' || p50 > p99) return `bad percentiles ${JSON.stringify(values)}`;
      return undefined;
    },
  },
];
