/**
 * Where segment files live durably: the object store, seen by the engine through this narrow
 * port (the storage folder implements it; the engine never sees an SDK). Keys are the segment
 * records' `path`s; the data directory keeps a local copy of each file under the same path.
 */
export interface SegmentStore {
  /** uploads a local file (streamed) under the key */
  put(key: string, body: { filePath: string }): Promise<void>;
  /** downloads the object to a local file (written whole, then renamed into place) */
  getToFile(key: string, filePath: string): Promise<void>;
  deleteMany(keys: readonly string[]): Promise<void>;
  list(prefix: string): Promise<Array<{ key: string }>>;
}
