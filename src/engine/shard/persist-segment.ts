/**
 * Turns a segment file into a durable one: written in the data directory by the given writing
 * step (a memtable snapshot or a merge, written on a segment writer thread), uploaded to the object store, described by the record the catalog will commit. The
 * object key and the local path share one relative path.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SegmentFileInfo } from '../segment/index.js';
import type { SegmentRecord, SegmentStore } from '../catalog/index.js';

export interface PersistTarget {
  dataDir: string;
  store: SegmentStore;
  index: string;
  indexUuid: string;
  level: number;
}

export interface PersistedSegment {
  record: SegmentRecord;
  /** the local copy */
  filePath: string;
}

/**
 * Writes a whole segment file at `filePath` (atomically: no file, or all of it) and describes
 * it. On failure it leaves no file behind.
 */
export type SegmentFileWriter = (filePath: string) => Promise<SegmentFileInfo>;

export async function persistSegment(write: SegmentFileWriter, target: PersistTarget, id: string): Promise<PersistedSegment> {
  const relativePath = path.join('indexes', target.indexUuid, `${id}.seg`);
  const filePath = path.join(target.dataDir, relativePath);
  await fs.promises.mkdir(path.dirname(filePath), { recursive: true });
  try {
    const info = await write(filePath);
    await target.store.put(relativePath, { filePath });
    const record: SegmentRecord = {
      id,
      index: target.index,
      level: target.level,
      path: relativePath,
      numDocs: info.numDocs,
      // a merge of documents that were all deleted is empty: its time bounds are ±Infinity,
      // which the catalog cannot hold; the row stays for its maxLid, so no lid is reused
      minTs: info.numDocs === 0 ? 0 : info.minTs,
      maxTs: info.numDocs === 0 ? 0 : info.maxTs,
      maxLid: info.maxLid,
      sizeBytes: info.sizeBytes,
      createdAtMs: Date.now(),
    };
    return { record, filePath };
  } catch (err) {
    await fs.promises.rm(filePath, { force: true }).catch(() => undefined);
    throw err;
  }
}
