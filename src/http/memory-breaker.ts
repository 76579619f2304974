/**
 * The parent circuit breaker on real memory (SVC_MEMORY_LIMIT_BYTES), as Elasticsearch's
 * `indices.breaker.total` with `use_real_memory`: while the process's resident memory is above
 * the limit, a new request that brings a body (writes, searches with a query, bulk) is refused
 * with 429 circuit_breaking_exception, which clients retry; requests without a body (liveness,
 * health, listings) still pass, and work already admitted runs to its end. The resident size is
 * sampled on a timer, not per request.
 */
import { CircuitBreakingError, humanBytes } from '../common/index.js';

export class RealMemoryBreaker {
  private residentBytes = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly limitBytes: number,
    private readonly sampleResident: () => number = () => process.memoryUsage.rss(),
    private readonly intervalMs = 100,
  ) {}

  start(): void {
    this.residentBytes = this.sampleResident();
    this.timer = setInterval(() => (this.residentBytes = this.sampleResident()), this.intervalMs);
    // the breaker must not keep the process alive
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Throws CircuitBreakingError while the last resident size sampled is above the limit. */
  check(): void {
    const used = this.residentBytes;
    if (used <= this.limitBytes) return;
    throw new CircuitBreakingError(
      `[parent] Data too large, data for [<http_request>] would be [${used}/${humanBytes(used)}], which is larger than the limit of ` +
        `[${this.limitBytes}/${humanBytes(this.limitBytes)}], real usage: [${used}/${humanBytes(used)}], new bytes reserved: [0/0b]`,
      { bytes_wanted: used, bytes_limit: this.limitBytes },
    );
  }
}
