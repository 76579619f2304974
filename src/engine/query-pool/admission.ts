/**
 * Admission of searches, in the manner of Elasticsearch's search thread pool: a fixed number of
 * searches run at once (their part on a query thread and their part on the main thread:
 * memtables and aggregations), a bounded queue waits in arrival order, and a search that finds
 * the queue full is refused at once with 429 `es_rejected_execution_exception`, which clients
 * retry. Bounding what runs bounds how much search work can stand on the main thread between
 * two steps of a bulk request, so that writers keep their share under a storm of searches.
 */
import { QueryTimeoutError, TooManyRequestsError } from '../../common/index.js';

export interface SearchAdmissionOptions {
  /** searches that run at once */
  running: number;
  /** searches that may wait for a turn; more are refused */
  queueSize: number;
}

export class SearchAdmission {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private completedCount = 0;
  private rejectedCount = 0;

  constructor(private readonly opts: SearchAdmissionOptions) {}

  /** searches running and waiting now, and refused so far */
  get stats(): { running: number; queued: number; completed: number; rejected: number } {
    return { running: this.active, queued: this.waiting.length, completed: this.completedCount, rejected: this.rejectedCount };
  }

  /**
   * Runs the search when its turn comes; refuses it when the queue is full, and answers a
   * timeout without running it when its deadline passed while it waited.
   */
  async run<T>(search: () => Promise<T>, deadlineMs?: number): Promise<T> {
    if (this.active < this.opts.running) this.active++;
    else if (this.waiting.length < this.opts.queueSize) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else {
      this.rejectedCount++;
      throw new TooManyRequestsError(
        `rejected execution of search on the search queue [running = ${this.active}, queue capacity = ${this.opts.queueSize}, queued tasks = ${this.waiting.length}, completed tasks = ${this.completedCount}] (SVC_QUERY_QUEUE_SIZE); retry later`,
      );
    }
    try {
      if (deadlineMs !== undefined && Date.now() > deadlineMs) {
        throw new QueryTimeoutError('the query waited past the hard query timeout (SVC_QUERY_TIMEOUT_SECONDS) for its turn and was not run');
      }
      return await search();
    } finally {
      this.completedCount++;
      this.release();
    }
  }

  /** the turn passes to the longest waiting search (it stays counted as running), or is freed */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}
