/**
 * The indexing threads, seen from the main thread. Each builds the memtables given to it
 * (SharedMemtable) in shared memory; the main thread reads them in place under a lease: it asks
 * the thread to stop between two documents and to publish the arrays it grew since the last
 * lease, reads, and lets the thread go on at the next turn of its event loop. A memtable that
 * no write is pending for is read without a lease.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Logger } from 'pino';
import { fromThreadError, ServiceUnavailableError } from '../../common/index.js';
import type { IndexingJobBody } from '../ingest/index.js';
import type { MemtableSnapshot } from '../memtable/index.js';
import { ANSWERED, CONTROL_WORDS, HOLD, INDEXER_THREAD_NAME, REQUEST, SIGNAL, type IndexerReply, type IndexerRequest, type IndexerWorkerData, type MemtableFigures, type Publication } from './messages.js';

const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './indexer-worker.ts' : './indexer-worker.js', import.meta.url);

/**
 * Longest wait for a thread to stop for a read: it looks between two documents, so only a
 * thread that hangs or died takes this long, and the read fails instead of the process hanging.
 */
const LEASE_TIMEOUT_MS = 10_000;

/** What a thread's memtable does with what the thread publishes. */
export interface PublishedMemtable {
  adopt(snapshot: MemtableSnapshot, figures: MemtableFigures): void;
}

export type AddedReply = Extract<IndexerReply, { kind: 'added' }>;

interface Pending {
  resolve(reply: IndexerReply): void;
  reject(err: unknown): void;
}

/** One indexing thread. */
export class IndexerThread {
  private readonly worker: Worker;
  private readonly control = new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * 4));
  private readonly readPort: MessagePort;
  private readonly pending = new Map<number, Pending>();
  /** memtables the thread may publish, by id */
  private readonly memtables = new Map<string, PublishedMemtable>();
  private nextRequestId = 1;
  private failure: Error | null = null;
  private closing = false;
  /** true from a lease until the turn of the event loop after it */
  private holding = false;

  constructor(private readonly logger: Logger) {
    const channel = new MessageChannel();
    this.readPort = channel.port1;
    const workerData: IndexerWorkerData = { control: this.control, readPort: channel.port2 };
    this.worker = new Worker(WORKER_URL, { name: INDEXER_THREAD_NAME, workerData, transferList: [channel.port2] });
    this.worker.on('message', (reply: IndexerReply) => this.settle(reply));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => {
      if (!this.closing) this.fail(new Error(`the indexing thread exited with code ${code}`));
    });
    this.worker.unref();
  }

  /** True while the main thread reads this thread's memtables (the thread is stopped). */
  get leased(): boolean {
    return this.holding;
  }

  register(id: string, memtable: PublishedMemtable): void {
    this.memtables.set(id, memtable);
  }

  /** Indexes the documents of one write into memtable `memtableId`; resolves once they are searchable. */
  add(memtableId: string, body: IndexingJobBody, transfer: ArrayBuffer[]): Promise<AddedReply> {
    const requestId = this.nextRequestId++;
    return this.request({ kind: 'add', requestId, memtableId, ...body }, transfer).then((reply) => reply as AddedReply);
  }

  /** The memtable's final arrays (null when it never took a document); the thread forgets it. */
  async freeze(memtableId: string): Promise<MemtableSnapshot | null> {
    const reply = await this.request({ kind: 'freeze', requestId: this.nextRequestId++, memtableId }, []);
    this.memtables.delete(memtableId);
    return reply.kind === 'frozen' ? reply.snapshot : null;
  }

  /**
   * Stops the thread between two documents and brings every memtable it wrote since the last
   * lease up to date (PublishedMemtable.adopt); the thread goes on at the next turn of the event
   * loop. Synchronous: the caller reads right after.
   */
  lease(): void {
    if (this.holding) return;
    if (this.failure) throw new ServiceUnavailableError(`the indexing thread failed: ${this.failure.message}`);
    const control = this.control;
    Atomics.store(control, HOLD, 1);
    const request = Atomics.add(control, REQUEST, 1) + 1;
    // a thread still waiting from the last lease looks again; one waiting for messages gets one
    Atomics.add(control, SIGNAL, 1);
    Atomics.notify(control, SIGNAL);
    this.worker.postMessage({ kind: 'sync' } satisfies IndexerRequest);
    const deadline = Date.now() + LEASE_TIMEOUT_MS;
    for (;;) {
      const answered = Atomics.load(control, ANSWERED);
      if (answered === request) break;
      const left = deadline - Date.now();
      if (left <= 0) {
        this.letGo();
        throw new ServiceUnavailableError('the indexing thread did not stop for a read in time');
      }
      Atomics.wait(control, ANSWERED, answered, left);
    }
    this.holding = true;
    for (let m = receiveMessageOnPort(this.readPort); m !== undefined; m = receiveMessageOnPort(this.readPort)) {
      for (const { snapshot, figures } of (m.message as Publication).memtables) this.memtables.get(snapshot.id)?.adopt(snapshot, figures);
    }
    setImmediate(() => this.letGo());
  }

  private letGo(): void {
    this.holding = false;
    Atomics.store(this.control, HOLD, 0);
    Atomics.add(this.control, SIGNAL, 1);
    Atomics.notify(this.control, SIGNAL);
  }

  private request(message: IndexerRequest & { requestId: number }, transfer: ArrayBuffer[]): Promise<IndexerReply> {
    if (this.failure) return Promise.reject(new ServiceUnavailableError(`the indexing thread failed: ${this.failure.message}`));
    if (this.closing) return Promise.reject(new ServiceUnavailableError('the indexing threads are stopped'));
    return new Promise((resolve, reject) => {
      this.pending.set(message.requestId, { resolve, reject });
      // a thread with work must keep the process alive, an idle one must not
      this.worker.ref();
      this.worker.postMessage(message, transfer);
    });
  }

  private settle(reply: IndexerReply): void {
    const pending = this.pending.get(reply.requestId);
    if (pending === undefined) return;
    this.pending.delete(reply.requestId);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.kind === 'failed') pending.reject(fromThreadError(reply.error));
    else pending.resolve(reply);
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    this.logger.error({ err }, 'indexing thread failed: writes and searches of its memtables fail until the node restarts');
    const error = new ServiceUnavailableError(`the indexing thread failed: ${err.message}`);
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.holding) this.letGo();
    for (const p of this.pending.values()) p.reject(new ServiceUnavailableError('the node is shutting down'));
    this.pending.clear();
    await this.worker.terminate();
  }
}

/** The node's indexing threads: each new memtable goes to the next one in turn. */
export class Indexer {
  private readonly threads: IndexerThread[] = [];
  private next = 0;

  constructor(threads: number, logger: Logger) {
    for (let i = 0; i < threads; i++) this.threads.push(new IndexerThread(logger));
  }

  get size(): number {
    return this.threads.length;
  }

  /** The thread a new memtable is built on. */
  assign(): IndexerThread {
    const thread = this.threads[this.next % this.threads.length]!;
    this.next++;
    return thread;
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.close()));
  }
}
