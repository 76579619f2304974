/**
 * What crosses between the main thread and a query thread: a search over segment files named by
 * path (the thread opens and caches them itself), and its result or error. Errors travel as
 * their Elasticsearch type, status and reason, and are rebuilt as SvcError on the main thread.
 */
import { SvcError } from '../../common/index.js';
import type { SearchRequest } from '../search/types.js';
import type { PackedResult } from './packed-result.js';

/** The name query threads carry for the operating system (at most 15 bytes). */
export const QUERY_THREAD_NAME = 'svc-query';

/** What a query thread is started with. */
export interface QueryWorkerData {
  /** the node's reader cache budget and this thread's slot in it */
  readerCache?: { buffer: SharedArrayBuffer; slot: number };
}

export interface FileTarget {
  index: string;
  filePath: string;
  segmentId: string;
  order: number;
  docLimit?: number;
  deleted?: Uint32Array;
}

export interface QueryTask {
  taskId: number;
  targets: FileTarget[];
  request: SearchRequest;
}

export interface WireError {
  type: string;
  status: number;
  reason: string;
  details: Record<string, unknown>;
  /** true for failures that are not the query's fault (a bug, a file gone) */
  internal: boolean;
}

export type QueryReply = { taskId: number; ok: true; result: PackedResult } | { taskId: number; ok: false; error: WireError };

export function toWireError(err: unknown): WireError {
  if (err instanceof SvcError) return { type: err.type, status: err.status, reason: err.reason, details: err.details, internal: err.status >= 500 };
  const reason = err instanceof Error ? err.message : String(err);
  return { type: 'exception', status: 500, reason, details: {}, internal: true };
}

export function fromWireError(error: WireError): SvcError {
  return new SvcError(error.type, error.status, error.reason, error.details);
}
