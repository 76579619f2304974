/**
 * Admission of searches, in the manner of Elasticsearch's search thread pool: a fixed number of
 * searches run at once (their part on a query thread and their part on the main thread:
 * memtables and aggregations), a bounded queue waits in arrival order, and a search that finds
 * the queue full is refused at once with 429 `es_rejected_execution_exception`, which clients
 * retry.
 *
 * A turn is given at most once per turn of the event loop (from a setImmediate callback), so
 * that whatever input arrived meanwhile (the next step of a bulk request, a liveness probe) is
 * handled between two searches instead of behind every search that is waiting: writers keep
 * their share of the main thread under a storm of searches.
 */
import { QueryTimeoutError, TooManyRequestsError } from '../../common/index.js';

export interface SearchAdmissionOptions {
  /** searches that run at once */
  running: number;
  /** searches that may wait for a turn; more are refused */
  queueSize: number;
  /** told of each refusal (the metrics) */
  onRejected?: () => void;
  /**
   * asked when a search's turn comes, before it runs: throws to refuse it (the process is above
   * its memory limit, say: a search queued before cannot add to it then)
   */
  beforeTurn?: () => void;
}

export class SearchAdmission {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private turnScheduled = false;
  private completedCount = 0;
  private rejectedCount = 0;

  constructor(private readonly opts: SearchAdmissionOptions) {}

  /** searches running and waiting now, and how many ended and were refused so far */
  get stats(): { running: number; queued: number; completed: number; rejected: number } {
    return { running: this.active, queued: this.waiting.length, completed: this.completedCount, rejected: this.rejectedCount };
  }

  /**
   * Runs the search when its turn comes; refuses it when the queue is full, and answers a
   * timeout without running it when its deadline passed while it waited.
   */
  async run<T>(search: () => Promise<T>, deadlineMs?: number): Promise<T> {
    const queued = this.active + this.waiting.length - this.opts.running;
    if (queued >= this.opts.queueSize) {
      this.rejectedCount++;
      this.opts.onRejected?.();
      throw new TooManyRequestsError(
        `rejected execution of search on the search queue [running = ${this.active}, queue capacity = ${this.opts.queueSize}, ` +
          `queued tasks = ${Math.max(0, queued)}, completed tasks = ${this.completedCount}] (SVC_QUERY_QUEUE_SIZE); retry later`,
      );
    }
    if (this.active === 0 && this.waiting.length === 0) {
      // the only search: nothing to pace it against, so it does not wait for the event loop
      this.active++;
    } else {
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        this.scheduleTurn();
      });
    }
    try {
      if (deadlineMs !== undefined && Date.now() > deadlineMs) {
        throw new QueryTimeoutError('the query waited past the hard query timeout (SVC_QUERY_TIMEOUT_SECONDS) for its turn and was not run');
      }
      this.opts.beforeTurn?.();
      return await search();
    } finally {
      this.active--;
      this.completedCount++;
      this.scheduleTurn();
    }
  }

  /** the longest waiting search gets the next free turn, on the next turn of the event loop */
  private scheduleTurn(): void {
    if (this.turnScheduled || this.waiting.length === 0 || this.active >= this.opts.running) return;
    this.turnScheduled = true;
    setImmediate(() => {
      this.turnScheduled = false;
      const next = this.waiting.shift();
      if (next && this.active < this.opts.running) {
        this.active++;
        next();
      } else if (next) this.waiting.unshift(next);
      this.scheduleTurn();
    });
  }
}
