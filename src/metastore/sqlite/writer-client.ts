/**
 * The main thread's end of the catalog's writer thread: sends a statement, resolves with its
 * result once the thread has run it. The thread keeps the process alive only while a statement
 * is on its way, as a connection on the main thread would not keep it alive at all.
 */
import { Worker } from 'node:worker_threads';
import { fromThreadError } from '../../common/index.js';
import { WRITER_THREAD_NAME, type StatementResult, type WriterReply, type WriterRequest, type WriterThreadData } from './messages.js';

const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './writer-thread.ts' : './writer-thread.js', import.meta.url);

interface Pending {
  resolve(result: StatementResult): void;
  reject(err: unknown): void;
}

export class SqliteWriter {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** set once the thread is gone: every later request fails with it */
  private ended: Error | undefined;
  private readonly exited: Promise<void>;

  private constructor(private readonly worker: Worker) {
    let exited!: () => void;
    this.exited = new Promise((resolve) => (exited = resolve));
    let failure: unknown;
    worker.on('message', (reply: WriterReply) => this.onReply(reply));
    // 'error' (an uncaught error on the thread) is followed by 'exit'
    worker.on('error', (err) => (failure ??= err));
    worker.on('exit', (code) => {
      this.ended = new Error(`the catalog's writer thread stopped (exit code ${code})`, { cause: failure });
      for (const p of this.pending.values()) p.reject(this.ended);
      this.pending.clear();
      exited();
    });
  }

  /** Starts the thread; resolves once its connection is open, rejects when it could not open it. */
  static async open(path: string): Promise<SqliteWriter> {
    const workerData: WriterThreadData = { path, threadName: WRITER_THREAD_NAME };
    const worker = new Worker(WORKER_URL, { name: WRITER_THREAD_NAME, workerData });
    const writer = new SqliteWriter(worker);
    await new Promise<void>((resolve, reject) => {
      writer.pending.set(0, { resolve: () => resolve(), reject });
    });
    worker.unref();
    return writer;
  }

  execute(sql: string, parameters: readonly unknown[]): Promise<StatementResult> {
    return this.send({ id: this.nextId++, kind: 'execute', sql, parameters });
  }

  /** Rolls back the open transaction, if SQLite has not ended it already. */
  async rollback(): Promise<void> {
    await this.send({ id: this.nextId++, kind: 'rollback' });
  }

  /** Closes the connection (checkpointing the log as SQLite does) and waits for the thread to end. */
  async close(): Promise<void> {
    if (this.ended === undefined) await this.send({ id: this.nextId++, kind: 'close' }).catch(() => undefined);
    // the caller waits for the end: the thread keeps the process alive until then
    this.worker.ref();
    await this.exited;
  }

  private send(request: WriterRequest): Promise<StatementResult> {
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage(request);
    });
  }

  private onReply(reply: WriterReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (!reply.ok) pending.reject(fromThreadError(reply.error));
    else pending.resolve('result' in reply ? reply.result : { rows: [] });
  }
}
