/**
 * The one object-store interface every backend and wrapper implements. Keys are relative paths
 * with `/` separators (see keys.ts); objects are immutable blobs written whole.
 */

/**
 * What `put` uploads: bytes held in memory (small objects), or a file on local disk, which is
 * streamed and never loaded whole (segment files reach about 1 GB). The file must not change
 * while the upload runs; a local store may keep a hard link to it.
 */
export type PutBody = Buffer | { readonly filePath: string };

export interface ObjectMeta {
  sizeBytes: number;
  lastModifiedMs?: number;
}

export interface ListedObject {
  key: string;
  sizeBytes: number;
}

export interface VerifyOptions {
  /** also check that objects can be written and deleted (a probe object); default true */
  write?: boolean;
}

export interface ObjectStore {
  /** where the store lives, safe to log: credentials and SAS signatures are never part of it */
  readonly uri: string;

  /** writes (or overwrites) an object; readers never see a partly written object */
  put(key: string, body: PutBody): Promise<void>;

  /** the whole object; throws ObjectNotFoundError when missing */
  get(key: string): Promise<Buffer>;

  /**
   * `length` bytes from `offset`; the range must lie inside the object (ObjectRangeError
   * otherwise, naming the object's size); throws ObjectNotFoundError when missing
   */
  getRange(key: string, offset: number, length: number): Promise<Buffer>;

  /**
   * streams the object into `filePath` (written under a temporary name, fsynced, then renamed, so
   * the file appears complete or not at all); throws ObjectNotFoundError when missing
   */
  getToFile(key: string, filePath: string): Promise<void>;

  /** size and age of an object, or null when there is none */
  head(key: string): Promise<ObjectMeta | null>;

  /** every object whose key starts with `prefix` (a string prefix, not only a folder), sorted by key */
  list(prefix: string): Promise<ListedObject[]>;

  /** removes an object; removing a missing object is not an error */
  delete(key: string): Promise<void>;

  /** removes many objects, batched where the backend allows; missing ones are skipped */
  deleteMany(keys: readonly string[]): Promise<void>;

  /**
   * a cheap check, at start-up, that the store exists and the credentials work (list, and unless
   * `write: false` a probe put and delete); throws ObjectStoreConfigError with a clear message
   */
  verify(options?: VerifyOptions): Promise<void>;

  /** releases connections; the store is unusable afterwards */
  close(): Promise<void>;
}

export type ObjectStoreOp = 'put' | 'get' | 'get_range' | 'get_to_file' | 'head' | 'list' | 'delete' | 'delete_many' | 'verify';
