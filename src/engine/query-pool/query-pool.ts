/**
 * The query threads (SVC_QUERY_THREADS): a search's segment files are searched on a worker
 * thread while the main thread searches the memtables (which live in its memory); the two parts
 * are merged. A thread that runs past the query's hard deadline is terminated and replaced, so
 * a runaway query is stopped even if it never reaches a cooperative deadline check. Searches
 * that can only match a few docs and read no sources, and small pages of the newest (or oldest)
 * hits of a query that reads few postings, run on the calling thread.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { QueryTimeoutError, SvcError } from '../../common/index.js';
import { executeSearch, matchUpperBound, mergeSearchResults, postingsWork } from '../search/index.js';
import type { SearchRequest, SearchResult, SearchTarget } from '../search/types.js';
import type { ReaderCacheBudget } from '../segment/index.js';
import { SearchAdmission } from './admission.js';
import { unpackResult } from './packed-result.js';
import { QUERY_THREAD_NAME, fromWireError, type FileTarget, type QueryReply, type QueryTask, type QueryWorkerData } from './messages.js';

/** What the pool reports, for the svc_query_* metrics. */
export interface QueryPoolEvents {
  queued(): void;
  started(queueDurationNs: number): void;
  finished(): void;
  panicked(): void;
  /** a search was refused because the search queue was full */
  rejected(): void;
}

export const NO_QUERY_POOL_EVENTS: QueryPoolEvents = {
  queued: () => undefined,
  started: () => undefined,
  finished: () => undefined,
  panicked: () => undefined,
  rejected: () => undefined,
};

export interface QueryPoolOptions {
  threads: number;
  logger: Logger;
  events?: QueryPoolEvents;
  /** time allowed past a query's deadline for its cooperative stop before the thread is terminated */
  terminateGraceMs?: number;
  /**
   * searches that may wait for their turn once as many run as there are query threads plus one
   * (the main thread's part); more get 429 (SVC_QUERY_QUEUE_SIZE). Unbounded when not given.
   */
  queueSize?: number;
  /** the node's reader cache budget, shared with every query thread (a standalone one per thread when not given) */
  readerCache?: ReaderCacheBudget;
  /** asked before each search runs; throws to refuse it (see SearchAdmissionOptions.beforeTurn) */
  beforeSearch?: () => void;
}

interface Pending {
  task: QueryTask;
  resolve(result: SearchResult): void;
  reject(err: unknown): void;
  enqueuedNs: bigint;
}

interface Thread {
  worker: Worker;
  busy: Pending | null;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Matches a count may have and still run here: a few term lookups and some thousands of doc ids
 * (a points-index slice, a decoded list) take well under 0.1 ms, less than handing the search to
 * a query thread and taking the answer back.
 */
const INLINE_MAX_MATCHES = 16_384;

/**
 * Hits a page sorted by `_ts` may ask for and still run here: the top-k visits the `_ts` blocks
 * of 1,024 docs newest (oldest) first and stops at the first that cannot beat the kept hits, so
 * it reads a block or two and the page's sources (about 1 µs each from a decoded doc block).
 */
const INLINE_MAX_PAGE = 100;

/**
 * Doc ids of postings such a page or a count may read: a term's decoded list is taken as it is
 * (a count is its length), a conjunction probes the bitset of its dense lists or merges them:
 * at most a few hundred microseconds at this size, once the lists are decoded and kept.
 */
const INLINE_MAX_POSTINGS = 1 << 18;

/** Whether the first sort key is `_ts` (the default sort is `_ts` descending). */
function sortedByTs(request: SearchRequest): boolean {
  return request.sort.length === 0 || request.sort[0]!.field === '_ts';
}

/**
 * A search cheaper than handing it to a query thread and taking the answer back (two thread
 * wake-ups and a copy of the hits, 0.2 to 0.3 ms on a busy 2-core machine): one that reads no
 * sources and touches few postings (by document frequencies, which the term dictionaries answer
 * without decoding a list, or the points index of a numeric field), such as a count of rare
 * terms or of a selective range, a word nobody wrote; a count or a small page of the newest hits
 * of a query on few postings (a phrase's postings count twice, for their positions).
 */
export function runsHere(files: readonly SearchTarget[], request: SearchRequest): boolean {
  const segments = files.map((t) => t.segment);
  const bound = matchUpperBound(segments, request.query);
  const k = request.from + request.size;
  if (bound === 0 || (k === 0 && bound <= INLINE_MAX_MATCHES)) return true;
  if (k > 0 && (k > INLINE_MAX_PAGE || !sortedByTs(request))) return false;
  return postingsWork(segments, request.query) <= INLINE_MAX_POSTINGS;
}

const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './query-worker.ts' : './query-worker.js', import.meta.url);

export class QueryPool {
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  private nextTaskId = 1;
  private closed = false;
  private readonly events: QueryPoolEvents;
  private readonly graceMs: number;
  /** the whole of a search (threads, memtables, aggregations) runs under it: see admission.ts */
  private readonly admission: SearchAdmission;

  constructor(private readonly opts: QueryPoolOptions) {
    this.events = opts.events ?? NO_QUERY_POOL_EVENTS;
    this.graceMs = opts.terminateGraceMs ?? 250;
    for (let i = 0; i < opts.threads; i++) this.threads.push(this.spawn());
    this.admission = new SearchAdmission({
      running: opts.threads + 1,
      queueSize: opts.queueSize ?? Infinity,
      onRejected: () => this.events.rejected(),
      ...(opts.beforeSearch === undefined ? {} : { beforeTurn: opts.beforeSearch }),
    });
  }

  get size(): number {
    return this.threads.length;
  }

  /**
   * Runs a whole search (this pool's part and what the caller does on the main thread around it)
   * when admission gives it a turn; 429 when the queue is full.
   */
  admit<T>(search: () => Promise<T>, deadlineMs?: number): Promise<T> {
    return this.admission.run(search, deadlineMs);
  }

  /** Searches the targets: segment files on a query thread, memtables here, results merged. */
  async search(targets: readonly SearchTarget[], request: SearchRequest): Promise<SearchResult> {
    const ordered = targets.map((t, i) => ({ ...t, order: t.order ?? i }));
    const files = ordered.filter((t) => t.filePath !== undefined);
    if (files.length === 0 || this.threads.length === 0 || this.closed || runsHere(files, request)) return executeSearch(ordered, request);

    // a part that stops counting past `trackTotalHits` says `gte`, and so does the merge of the parts
    const partRequest: SearchRequest = { ...request, from: 0, size: request.from + request.size };
    const fileTargets: FileTarget[] = files.map((t) => ({
      index: t.index,
      filePath: t.filePath!,
      segmentId: t.segment.id,
      order: t.order,
      docLimit: t.docLimit,
      deleted: t.deleted,
    }));
    const remote = this.run({ taskId: this.nextTaskId++, targets: fileTargets, request: partRequest });
    remote.catch(() => undefined);
    let local: SearchResult;
    try {
      local = executeSearch(
        ordered.filter((t) => t.filePath === undefined),
        partRequest,
      );
    } catch (err) {
      await remote.catch(() => undefined);
      throw err;
    }
    let fromFiles: SearchResult;
    try {
      fromFiles = await remote;
    } catch (err) {
      if (err instanceof SvcError && err.status < 500) throw err;
      // a thread could not read a file (replaced by compaction meanwhile, say): this thread still holds the readers
      this.opts.logger.warn({ err }, 'query thread failed; searching the segment files on the main thread');
      fromFiles = executeSearch(files, partRequest);
    }
    return mergeSearchResults([fromFiles, local], request);
  }

  private run(task: QueryTask): Promise<SearchResult> {
    return new Promise((resolve, reject) => {
      const pending: Pending = { task, resolve, reject, enqueuedNs: process.hrtime.bigint() };
      const idle = this.threads.find((t) => t.busy === null);
      if (idle) this.dispatch(idle, pending);
      else {
        this.events.queued();
        this.queue.push(pending);
      }
    });
  }

  private dispatch(thread: Thread, pending: Pending): void {
    thread.busy = pending;
    this.events.started(Number(process.hrtime.bigint() - pending.enqueuedNs));
    const deadline = pending.task.request.deadlineMs;
    if (deadline !== undefined) {
      const wait = Math.max(0, deadline - Date.now()) + this.graceMs;
      thread.timer = setTimeout(() => this.terminate(thread), wait);
    }
    // an idle thread must not keep the process alive, a busy one must
    thread.worker.ref();
    thread.worker.postMessage(pending.task);
  }

  private settle(thread: Thread): Pending | null {
    const pending = thread.busy;
    thread.busy = null;
    clearTimeout(thread.timer);
    thread.timer = undefined;
    thread.worker.unref();
    if (pending) this.events.finished();
    const next = this.queue.shift();
    if (next) this.dispatch(thread, next);
    return pending;
  }

  private spawn(): Thread {
    const budget = this.opts.readerCache;
    const slot = budget?.acquireSlot() ?? -1;
    const workerData: QueryWorkerData = { readerCache: budget === undefined ? undefined : { buffer: budget.buffer, slot } };
    const worker = new Worker(WORKER_URL, { name: QUERY_THREAD_NAME, workerData });
    // what the thread kept is given back once it can keep no more (a replaced thread, too)
    worker.once('exit', () => budget?.releaseSlot(slot));
    const thread: Thread = { worker, busy: null, timer: undefined };
    worker.on('message', (reply: QueryReply) => {
      const pending = this.settle(thread);
      if (!pending) return;
      if (reply.ok) pending.resolve(unpackResult(reply.result));
      else {
        if (reply.error.internal) this.events.panicked();
        pending.reject(fromWireError(reply.error));
      }
    });
    worker.on('error', (err) => {
      this.events.panicked();
      this.opts.logger.error({ err }, 'query thread crashed');
      this.replace(thread, err);
    });
    worker.unref();
    return thread;
  }

  /** The query ran past its hard timeout: stop the thread, answer with a timeout, start a new thread. */
  private terminate(thread: Thread): void {
    this.replace(thread, new QueryTimeoutError('the query ran past the hard query timeout (SVC_QUERY_TIMEOUT_SECONDS) and was stopped'));
  }

  private replace(thread: Thread, reason: unknown): void {
    const pending = thread.busy;
    thread.busy = null;
    clearTimeout(thread.timer);
    void thread.worker.terminate();
    if (pending) {
      this.events.finished();
      pending.reject(reason);
    }
    const index = this.threads.indexOf(thread);
    if (index >= 0 && !this.closed) {
      const fresh = this.spawn();
      this.threads[index] = fresh;
      const next = this.queue.shift();
      if (next) this.dispatch(fresh, next);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new SvcError('service_unavailable_exception', 503, 'the node is shutting down'));
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
