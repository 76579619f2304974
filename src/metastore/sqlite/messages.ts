/**
 * What the main thread and the catalog's writer thread say to each other: one statement per
 * request, answered in order.
 */
import type { ThreadError } from '../../common/index.js';

export const WRITER_THREAD_NAME = 'svc-catalog';

export interface WriterThreadData {
  path: string;
  threadName: string;
}

export type WriterRequest =
  | { id: number; kind: 'execute'; sql: string; parameters: readonly unknown[] }
  /** ends the open transaction, if any: SQLite may have ended it already (a failed commit) */
  | { id: number; kind: 'rollback' }
  | { id: number; kind: 'close' };

/** What a statement gave: rows for one that returns rows, counts for the others. */
export interface StatementResult {
  rows: unknown[];
  changes?: number;
  lastInsertRowid?: number | bigint;
}

export type WriterReply =
  | { id: number; ok: true; result: StatementResult }
  | { id: number; ok: false; error: ThreadError }
  /** sent once, when the connection is open (id 0) or could not be opened */
  | { id: 0; ok: true; ready: true };
