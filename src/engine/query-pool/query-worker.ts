/**
 * A query thread: runs searches over segment files it opens by path and keeps open (a bounded
 * set, least recently used closed first). Segment files are immutable, so a cached reader stays
 * right for as long as the file exists.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { nameThisThread } from '../../common/index.js';
import { ReaderCacheBudget, openSegment, useReaderCacheBudget } from '../segment/index.js';
import { executeSearch } from '../search/index.js';
import type { SearchTarget } from '../search/types.js';
import type { SegmentReader } from '../segment-reader.js';
import { packResult } from './packed-result.js';
import { QUERY_THREAD_NAME, toWireError, type QueryReply, type QueryTask, type QueryWorkerData } from './messages.js';

nameThisThread(QUERY_THREAD_NAME);
const shared = (workerData as QueryWorkerData | null)?.readerCache;
if (shared !== undefined) useReaderCacheBudget(ReaderCacheBudget.attach(shared.buffer), shared.slot);

const MAX_OPEN_SEGMENTS = 512;
type OpenReader = SegmentReader & { close(): void };
const open = new Map<string, OpenReader>();

function readerFor(filePath: string, segmentId: string): OpenReader {
  const key = `${filePath}\u0000${segmentId}`;
  let reader = open.get(key);
  if (reader) {
    open.delete(key);
  } else {
    reader = openSegment(filePath, segmentId);
    if (open.size >= MAX_OPEN_SEGMENTS) {
      const [oldestKey, oldest] = open.entries().next().value as [string, OpenReader];
      open.delete(oldestKey);
      oldest.close();
    }
  }
  open.set(key, reader);
  return reader;
}

parentPort!.on('message', (task: QueryTask) => {
  let reply: QueryReply;
  try {
    const targets: SearchTarget[] = task.targets.map((t) => ({
      index: t.index,
      segment: readerFor(t.filePath, t.segmentId),
      order: t.order,
      docLimit: t.docLimit,
      deleted: t.deleted,
    }));
    reply = { taskId: task.taskId, ok: true, result: packResult(executeSearch(targets, task.request)) };
  } catch (err) {
    reply = { taskId: task.taskId, ok: false, error: toWireError(err) };
  }
  parentPort!.postMessage(reply);
});
