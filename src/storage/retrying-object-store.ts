/**
 * Retries whole operations of the store it wraps on transient failures (network errors,
 * timeouts, 5xx, 429, throttling), with exponential backoff and full jitter. A missing object,
 * a refused credential or a bad request fails at once.
 */
import type { ListedObject, ObjectMeta, ObjectStore, PutBody, VerifyOptions } from './object-store.js';
import { checkRetryPolicy, DEFAULT_RETRY_POLICY, withRetries, type RetryListener, type RetryPolicy } from './retry.js';

export class RetryingObjectStore implements ObjectStore {
  readonly uri: string;
  private readonly policy: RetryPolicy;

  constructor(
    readonly inner: ObjectStore,
    policy: RetryPolicy = DEFAULT_RETRY_POLICY,
    private readonly onRetry?: RetryListener,
  ) {
    this.uri = inner.uri;
    this.policy = checkRetryPolicy({ ...policy });
  }

  put(key: string, body: PutBody): Promise<void> {
    // a put replaces the whole object, so running it again is safe; a file body is reread
    return this.retry('put', key, () => this.inner.put(key, body));
  }

  get(key: string): Promise<Buffer> {
    return this.retry('get', key, () => this.inner.get(key));
  }

  getRange(key: string, offset: number, length: number): Promise<Buffer> {
    return this.retry('get_range', key, () => this.inner.getRange(key, offset, length));
  }

  getToFile(key: string, filePath: string): Promise<void> {
    return this.retry('get_to_file', key, () => this.inner.getToFile(key, filePath));
  }

  head(key: string): Promise<ObjectMeta | null> {
    return this.retry('head', key, () => this.inner.head(key));
  }

  list(prefix: string): Promise<ListedObject[]> {
    return this.retry('list', prefix, () => this.inner.list(prefix));
  }

  delete(key: string): Promise<void> {
    return this.retry('delete', key, () => this.inner.delete(key));
  }

  deleteMany(keys: readonly string[]): Promise<void> {
    return this.retry('delete_many', keys[0] ?? '', () => this.inner.deleteMany(keys));
  }

  verify(options?: VerifyOptions): Promise<void> {
    // verify() reports through ObjectStoreConfigError, which is never transient: a start-up check
    // fails fast instead of waiting out a backoff
    return this.inner.verify(options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private retry<T>(op: string, key: string, fn: () => Promise<T>): Promise<T> {
    return withRetries(this.policy, { op, key }, fn, this.onRetry);
  }
}
