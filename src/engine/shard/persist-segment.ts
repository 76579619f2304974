/**
 * Turns a segment source (a memtable being flushed, a merged view being compacted) into a durable
 * segment file: written in the data directory, uploaded to the object store, described by the
 * record the catalog will commit. The object key and the local path share one relative path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { SegmentReader } from '../segment-reader.js';
import { writeSegment } from '../segment/index.js';
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

export async function persistSegment(source: SegmentReader, target: PersistTarget, id: string = randomUUID()): Promise<PersistedSegment> {
  const relativePath = path.join('indexes', target.indexUuid, `${id}.seg`);
  const filePath = path.join(target.dataDir, relativePath);
  await fs.promises.mkdir(path.dirname(filePath), { recursive: true });
  try {
    const info = await writeSegment(source, filePath);
    await target.store.put(relativePath, { filePath });
    const record: SegmentRecord = {
      id,
      index: target.index,
      level: target.level,
      path: relativePath,
      numDocs: info.numDocs,
      minTs: info.minTs,
      maxTs: info.maxTs,
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
