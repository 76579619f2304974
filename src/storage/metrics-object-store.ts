/**
 * Reports every operation of the store it wraps (its kind, duration and outcome) to hooks, so
 * that the observability layer counts requests without this folder depending on prom-client.
 * `objectMetricsHooks` feeds the svc_delete_file_* metrics.
 */
import type { Metrics } from '../observability/index.js';
import type { ListedObject, ObjectMeta, ObjectStore, ObjectStoreOp, PutBody, VerifyOptions } from './object-store.js';

export interface ObjectStoreHooks {
  /**
   * called once per operation when it ends; `objectCount` is the number of objects it concerned
   * (1, or the keys of a deleteMany); a missing object on `get` counts as not ok
   */
  onRequest(op: ObjectStoreOp, durationNs: number, ok: boolean, objectCount: number): void;
}

export class MetricsObjectStore implements ObjectStore {
  readonly uri: string;

  constructor(
    readonly inner: ObjectStore,
    private readonly hooks: ObjectStoreHooks,
  ) {
    this.uri = inner.uri;
  }

  put(key: string, body: PutBody): Promise<void> {
    return this.measure('put', 1, () => this.inner.put(key, body));
  }

  get(key: string): Promise<Buffer> {
    return this.measure('get', 1, () => this.inner.get(key));
  }

  getRange(key: string, offset: number, length: number): Promise<Buffer> {
    return this.measure('get_range', 1, () => this.inner.getRange(key, offset, length));
  }

  getToFile(key: string, filePath: string): Promise<void> {
    return this.measure('get_to_file', 1, () => this.inner.getToFile(key, filePath));
  }

  head(key: string): Promise<ObjectMeta | null> {
    return this.measure('head', 1, () => this.inner.head(key));
  }

  list(prefix: string): Promise<ListedObject[]> {
    return this.measure('list', 1, () => this.inner.list(prefix));
  }

  delete(key: string): Promise<void> {
    return this.measure('delete', 1, () => this.inner.delete(key));
  }

  deleteMany(keys: readonly string[]): Promise<void> {
    return this.measure('delete_many', keys.length, () => this.inner.deleteMany(keys));
  }

  verify(options?: VerifyOptions): Promise<void> {
    return this.measure('verify', 1, () => this.inner.verify(options));
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async measure<T>(op: ObjectStoreOp, objectCount: number, fn: () => Promise<T>): Promise<T> {
    const start = process.hrtime.bigint();
    let ok = false;
    try {
      const result = await fn();
      ok = true;
      return result;
    } finally {
      const durationNs = Number(process.hrtime.bigint() - start);
      try {
        this.hooks.onRequest(op, durationNs, ok, objectCount);
      } catch {
        // a failing metric must not fail the operation it measured
      }
    }
  }
}

/** Hooks that feed the registry: deletions into svc_delete_file_duration_ns, _success_count and _error_count. */
export function objectMetricsHooks(metrics: Metrics): ObjectStoreHooks {
  return {
    onRequest(op, durationNs, ok, objectCount) {
      if (op !== 'delete' && op !== 'delete_many') return;
      metrics.deleteFileDurationNs.observe(durationNs);
      if (ok) metrics.deleteFileSuccessCount.inc(objectCount);
      else metrics.deleteFileErrorCount.inc(objectCount);
    },
  };
}
