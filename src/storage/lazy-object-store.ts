/**
 * An object store built on first use: the S3 and Azure client libraries take a good part of a
 * second to load, which a service on a local store (and every restart) should not pay.
 */
import type { ListedObject, ObjectMeta, ObjectStore, PutBody, VerifyOptions } from './object-store.js';

export class LazyObjectStore implements ObjectStore {
  private store: Promise<ObjectStore> | undefined;

  constructor(
    readonly uri: string,
    private readonly build: () => Promise<ObjectStore>,
  ) {}

  private inner(): Promise<ObjectStore> {
    return (this.store ??= this.build());
  }

  async put(key: string, body: PutBody): Promise<void> {
    return (await this.inner()).put(key, body);
  }

  async get(key: string): Promise<Buffer> {
    return (await this.inner()).get(key);
  }

  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    return (await this.inner()).getRange(key, offset, length);
  }

  async getToFile(key: string, filePath: string): Promise<void> {
    return (await this.inner()).getToFile(key, filePath);
  }

  async head(key: string): Promise<ObjectMeta | null> {
    return (await this.inner()).head(key);
  }

  async list(prefix: string): Promise<ListedObject[]> {
    return (await this.inner()).list(prefix);
  }

  async delete(key: string): Promise<void> {
    return (await this.inner()).delete(key);
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    return (await this.inner()).deleteMany(keys);
  }

  async verify(options?: VerifyOptions): Promise<void> {
    return (await this.inner()).verify(options);
  }

  async close(): Promise<void> {
    // never built: nothing to close (and no library to load just for that)
    if (!this.store) return;
    const store = await this.store.catch(() => undefined);
    await store?.close();
  }
}
