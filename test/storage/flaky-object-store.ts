/**
 * A test-only wrapper that makes the next calls of an operation fail with a given error before
 * passing calls on to a real store, and counts the calls it sees.
 */
import type { ListedObject, ObjectMeta, ObjectStore, ObjectStoreOp, PutBody, VerifyOptions } from '../../src/storage/index.js';

export class FlakyObjectStore implements ObjectStore {
  readonly uri: string;
  readonly calls = new Map<ObjectStoreOp, number>();
  private readonly faults = new Map<ObjectStoreOp, unknown[]>();

  constructor(readonly inner: ObjectStore) {
    this.uri = inner.uri;
  }

  /** the next `errors.length` calls of `op` throw these errors, in order */
  failNext(op: ObjectStoreOp, ...errors: unknown[]): void {
    this.faults.set(op, [...(this.faults.get(op) ?? []), ...errors]);
  }

  callsOf(op: ObjectStoreOp): number {
    return this.calls.get(op) ?? 0;
  }

  put(key: string, body: PutBody): Promise<void> {
    return this.call('put', () => this.inner.put(key, body));
  }
  get(key: string): Promise<Buffer> {
    return this.call('get', () => this.inner.get(key));
  }
  getRange(key: string, offset: number, length: number): Promise<Buffer> {
    return this.call('get_range', () => this.inner.getRange(key, offset, length));
  }
  getToFile(key: string, filePath: string): Promise<void> {
    return this.call('get_to_file', () => this.inner.getToFile(key, filePath));
  }
  head(key: string): Promise<ObjectMeta | null> {
    return this.call('head', () => this.inner.head(key));
  }
  list(prefix: string): Promise<ListedObject[]> {
    return this.call('list', () => this.inner.list(prefix));
  }
  delete(key: string): Promise<void> {
    return this.call('delete', () => this.inner.delete(key));
  }
  deleteMany(keys: readonly string[]): Promise<void> {
    return this.call('delete_many', () => this.inner.deleteMany(keys));
  }
  verify(options?: VerifyOptions): Promise<void> {
    return this.call('verify', () => this.inner.verify(options));
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  private async call<T>(op: ObjectStoreOp, fn: () => Promise<T>): Promise<T> {
    this.calls.set(op, this.callsOf(op) + 1);
    const pending = this.faults.get(op);
    if (pending && pending.length > 0) throw pending.shift();
    return fn();
  }
}
