/**
 * The segment writer threads: jobs queue here and run one per thread. Threads start when a job
 * needs one and stop on release() or close(). A thread that dies during a job (an uncaught
 * error, running out of memory, termination) fails that job, leaves no partial output file, and
 * is replaced by a new thread when the next job comes.
 *
 * Threads get no `resourceLimits`: a heap limit stops a thread whose heap grows past it, but a
 * single allocation larger than the limit (one big document's source) aborts the whole process.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { ServiceUnavailableError, fromThreadError } from '../../common/index.js';
import type { SegmentFileInfo } from '../segment/index.js';
import { THREAD_NAME, transferablesOf, type JobReply, type SegmentWriteJob } from './jobs.js';

export interface SegmentWriterPoolOptions {
  logger: Logger;
  /** threads at most (default 1, see index.ts) */
  threads?: number;
  /** the threads' name for the operating system, at most 15 bytes (default THREAD_NAME) */
  threadName?: string;
}

interface Pending {
  jobId: number;
  job: SegmentWriteJob;
  resolve(info: SegmentFileInfo): void;
  reject(err: unknown): void;
}

interface Thread {
  worker: Worker;
  busy: Pending | null;
  /** the first error the thread reported before it exited */
  failure: unknown;
  /** stopped on purpose (release, close): its end is no crash */
  stopping: boolean;
  exited: Promise<void>;
}

const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './segment-writer-worker.ts' : './segment-writer-worker.js', import.meta.url);

export class SegmentWriterPool {
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  private readonly maxThreads: number;
  private nextJobId = 1;
  private closed = false;

  constructor(private readonly opts: SegmentWriterPoolOptions) {
    this.maxThreads = Math.max(1, opts.threads ?? 1);
  }

  /** Threads running now (0 until the first job, and after release). */
  get size(): number {
    return this.threads.length;
  }

  /** Writes the job's segment file on a writer thread; resolves with its description. */
  run(job: SegmentWriteJob): Promise<SegmentFileInfo> {
    if (this.closed) return Promise.reject(new ServiceUnavailableError('the segment writer threads are stopped'));
    return new Promise((resolve, reject) => {
      this.queue.push({ jobId: this.nextJobId++, job, resolve, reject });
      this.pump();
    });
  }

  /** Stops the threads that have no job; the next job starts a thread again. */
  async release(): Promise<void> {
    const idle = this.threads.filter((t) => t.busy === null);
    await Promise.all(idle.map((t) => this.stop(t)));
  }

  /** Fails queued and running jobs and stops every thread; later jobs are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new ServiceUnavailableError('the node is shutting down'));
    await Promise.all([...this.threads].map((t) => this.stop(t)));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let thread = this.threads.find((t) => t.busy === null);
      if (!thread) {
        if (this.threads.length >= this.maxThreads) return;
        thread = this.spawn();
      }
      this.dispatch(thread, this.queue.shift()!);
    }
  }

  private dispatch(thread: Thread, pending: Pending): void {
    thread.busy = pending;
    // a thread with a job keeps the process alive until it answers; an idle one does not
    thread.worker.ref();
    thread.worker.postMessage({ jobId: pending.jobId, job: pending.job }, transferablesOf(pending.job));
  }

  private spawn(): Thread {
    const name = this.opts.threadName ?? THREAD_NAME;
    const worker = new Worker(WORKER_URL, { name, workerData: { threadName: name } });
    let exited!: () => void;
    const thread: Thread = { worker, busy: null, failure: undefined, stopping: false, exited: new Promise((r) => (exited = r)) };
    worker.on('message', (reply: JobReply) => {
      const pending = thread.busy;
      if (!pending || pending.jobId !== reply.jobId) return;
      thread.busy = null;
      worker.unref();
      if (reply.ok) pending.resolve(reply.info);
      else pending.reject(fromThreadError(reply.error));
      this.pump();
    });
    // 'error' (an uncaught error, out of memory) is followed by 'exit'; the job fails there
    worker.on('error', (err) => {
      thread.failure ??= err;
    });
    worker.on('exit', (code) => {
      void this.onExit(thread, code).finally(exited);
    });
    worker.unref();
    this.threads.push(thread);
    return thread;
  }

  private async onExit(thread: Thread, code: number): Promise<void> {
    const index = this.threads.indexOf(thread);
    if (index >= 0) this.threads.splice(index, 1);
    const pending = thread.busy;
    thread.busy = null;
    if (pending) {
      let err: unknown;
      if (thread.stopping) {
        err = new ServiceUnavailableError('the node is shutting down');
      } else {
        err = new Error(`the segment writer thread stopped (exit code ${code}) while writing ${pending.job.outputPath}`, { cause: thread.failure });
        this.opts.logger.error({ err, cause: thread.failure, output: pending.job.outputPath }, 'segment writer thread crashed; its job failed');
      }
      // the thread could not clean up after itself: writeSegment writes `<path>.tmp` first
      await Promise.all([pending.job.outputPath, `${pending.job.outputPath}.tmp`].map((p) => fs.promises.rm(p, { force: true }).catch(() => undefined)));
      pending.reject(err);
    }
    if (!this.closed) this.pump();
  }

  private async stop(thread: Thread): Promise<void> {
    thread.stopping = true;
    // out of the list at once, so that no job is sent to it meanwhile
    const index = this.threads.indexOf(thread);
    if (index >= 0) this.threads.splice(index, 1);
    await thread.worker.terminate();
    await thread.exited;
  }
}
