/**
 * The svc_* metric registry (prom-client). Names are the spec's, exactly. Metrics without a
 * label list carry no per-index labels (since 1.23.0).
 */
import client from 'prom-client';

export interface IndexBytesSample {
  type: string;
  level: string;
  bytes: number;
}

export class Metrics {
  readonly registry = new client.Registry();

  readonly bulkRequestIndexedBytes = this.counter('svc_bulk_request_indexed_bytes', 'bytes of documents accepted by _bulk');
  readonly usageWriteBytes = this.counter('svc_usage_write_bytes', 'bytes written by clients (bulk bodies after decompression); in a cluster, counted once, by the api process that took the request');
  readonly evictionFileTotalCount = this.counter('svc_eviction_file_total_count', 'segment files evicted from the local cache');

  readonly documentFieldCount = this.summary('svc_document_field_count', 'fields per indexed document');
  readonly documentTokenCount = this.summary('svc_document_token_count', '_line tokens per indexed document');

  private indexBytesSource: () => IndexBytesSample[] = () => [];
  readonly indexBytes = new client.Gauge({
    name: 'svc_index_bytes',
    help: 'bytes of index data by index type (segment file, memtable) and compaction level',
    labelNames: ['type', 'level'] as const,
    registers: [this.registry],
    collect: () => {
      this.indexBytes.reset();
      for (const sample of this.indexBytesSource()) this.indexBytes.inc({ type: sample.type, level: sample.level }, sample.bytes);
    },
  });
  private inFlightSource: () => number = () => 0;
  readonly inFlightRequestsBytes = new client.Gauge({
    name: 'svc_in_flight_requests_bytes',
    help: 'bytes of request bodies and answers held now (SVC_IN_FLIGHT_REQUESTS_BYTES)',
    registers: [this.registry],
    collect: () => {
      this.inFlightRequestsBytes.set(this.inFlightSource());
    },
  });
  readonly processResidentBytes = new client.Gauge({
    name: 'svc_process_resident_bytes',
    help: 'resident set size of the process, memory maps included',
    registers: [this.registry],
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  readonly jemallocAllocatedBytes = new client.Gauge({
    name: 'svc_jemalloc_allocated_bytes',
    help: 'bytes allocated by the heap allocator (V8 heap used plus external memory)',
    registers: [this.registry],
    collect() {
      const m = process.memoryUsage();
      this.set(m.heapUsed + m.external);
    },
  });
  readonly jemallocResidentBytes = new client.Gauge({
    name: 'svc_jemalloc_resident_bytes',
    help: 'bytes held by the heap allocator (V8 heap total plus array buffers)',
    registers: [this.registry],
    collect() {
      const m = process.memoryUsage();
      this.set(m.heapTotal + m.arrayBuffers);
    },
  });

  readonly queryQueueDurationNs = new client.Histogram({
    name: 'svc_query_queue_duration_ns',
    help: 'time a query waited for a query thread, in nanoseconds',
    buckets: [1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10],
    registers: [this.registry],
  });
  readonly queryQueuedTotal = this.counter('svc_query_queued_total', 'queries that had to wait for a query thread');
  readonly queryRejectedTotal = this.counter('svc_query_rejected_total', 'searches refused with 429 because the search queue was full (SVC_QUERY_QUEUE_SIZE)');
  readonly queryTasksCurrentCount = this.gauge('svc_query_tasks_current_count', 'queries running now');
  readonly queryTasksPanickedTotal = this.counter('svc_query_tasks_panicked_total', 'queries that failed with an internal error');
  readonly queryTasksTotal = this.counter('svc_query_tasks_total', 'queries run');

  readonly aggregationCacheEntriesBytes = this.gauge('svc_aggregation_cache_entries_bytes', 'bytes held by cached aggregation results');
  readonly aggregationCacheEntriesCount = this.gauge('svc_aggregation_cache_entries_count', 'cached aggregation results');

  readonly compactionDocCount = new client.Counter({
    name: 'svc_compaction_doc_count',
    help: 'documents written by compactions, by target level',
    labelNames: ['level'] as const,
    registers: [this.registry],
  });
  readonly compactionFailureTotal = new client.Counter({
    name: 'svc_compaction_failure_total',
    help: 'failed compactions by cause',
    labelNames: ['cause'] as const,
    registers: [this.registry],
  });
  readonly compactionFailure = new client.Gauge({
    name: 'svc_compaction_failure',
    help: 'compactions failed since start by cause (io, upload, ...)',
    labelNames: ['cause'] as const,
    registers: [this.registry],
  });
  readonly compactionCurrentCount = new client.Gauge({
    name: 'svc_compaction_current_count',
    help: 'compactions running now, by source and target level',
    labelNames: ['from', 'to'] as const,
    registers: [this.registry],
  });

  readonly deleteFileDurationNs = this.histogramNs('svc_delete_file_duration_ns', 'time to delete a file, in nanoseconds');
  readonly deleteFileErrorCount = this.counter('svc_delete_file_error_count', 'file deletions that failed');
  readonly deleteFileSuccessCount = this.counter('svc_delete_file_success_count', 'files deleted');
  readonly deleteLocalGcCount = this.counter('svc_delete_local_gc_count', 'local garbage collection runs');
  readonly deleteLocalGcDurationNs = this.histogramNs('svc_delete_local_gc_duration_ns', 'duration of local garbage collection runs');
  readonly deleteLocalNamespacesTryLaterCount = this.counter(
    'svc_delete_local_namespaces_try_later_count',
    'indexes whose deletion was put back on the try-later queue',
  );
  readonly deleteLocalNamespacesTryLaterCurrentCount = this.gauge(
    'svc_delete_local_namespaces_try_later_current_count',
    'depth of the try-later garbage collection queue',
  );
  readonly deleteUpdateGcRangesCount = this.counter('svc_delete_update_gc_ranges_count', 'updates of garbage-collectable ranges');
  readonly deleteUpdateGcRangesDurationNs = this.histogramNs(
    'svc_delete_update_gc_ranges_duration_ns',
    'duration of updates of garbage-collectable ranges',
  );
  readonly deleteVacuumNamespaceVisitCount = this.counter('svc_delete_vacuum_namespace_visit_count', 'indexes visited by vacuum');

  constructor() {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'svc_nodejs_' });
  }

  /** Where svc_index_bytes reads its figures from when scraped. */
  watchIndexBytes(source: () => IndexBytesSample[]): void {
    this.indexBytesSource = source;
  }

  watchInFlightBytes(source: () => number): void {
    this.inFlightSource = source;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private counter(name: string, help: string): client.Counter {
    return new client.Counter({ name, help, registers: [this.registry] });
  }

  /** per-document quantiles over the last ten minutes */
  private summary(name: string, help: string): client.Summary {
    return new client.Summary({ name, help, percentiles: [0.5, 0.9, 0.99], maxAgeSeconds: 600, ageBuckets: 5, registers: [this.registry] });
  }

  private gauge(name: string, help: string): client.Gauge {
    return new client.Gauge({ name, help, registers: [this.registry] });
  }

  private histogramNs(name: string, help: string): client.Histogram {
    return new client.Histogram({ name, help, buckets: [1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10], registers: [this.registry] });
  }
}
