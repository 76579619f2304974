/**
 * The parent circuit breaker on real memory (SVC_MEMORY_LIMIT_BYTES), as Elasticsearch's
 * `indices.breaker.total` with `use_real_memory`: while the process's resident memory is above
 * its trip point, new work is refused with 429 circuit_breaking_exception, which clients retry:
 * a request that brings a body (writes, bulk, searches with a query), and a search whose turn
 * comes (one queued before, or sent by URL). Requests without a body that run no search
 * (liveness, health, listings) still pass, and work already running goes to its end: the trip
 * point is 80 % of the limit, the rest being room for that work and for the garbage V8 has not
 * collected yet (Elasticsearch's parent breaker trips at 95 % of a heap it measures after
 * collections). The resident size is sampled on a timer, not per request; the process has one
 * sampler per limit.
 */
import { CircuitBreakingError } from './errors.js';
import { humanBytes } from './human-bytes.js';

/** resident memory is the process's: one sampler serves every server and pool of it */
/** share of the limit at which new work is refused: what runs already needs room to finish */
const TRIP_SHARE = 0.8;

const processBreakers = new Map<number, RealMemoryBreaker>();

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

  /** The process's breaker for a limit, sampling from its first use. */
  static forProcess(limitBytes: number): RealMemoryBreaker {
    let breaker = processBreakers.get(limitBytes);
    if (breaker === undefined) {
      breaker = new RealMemoryBreaker(limitBytes);
      breaker.start();
      processBreakers.set(limitBytes, breaker);
    }
    return breaker;
  }

  /** Resident bytes above which new work is refused. */
  get tripBytes(): number {
    return Math.floor(this.limitBytes * TRIP_SHARE);
  }

  /** Throws CircuitBreakingError while the last resident size sampled is above the trip point. */
  check(): void {
    const used = this.residentBytes;
    const trip = this.tripBytes;
    if (used <= trip) return;
    throw new CircuitBreakingError(
      `[parent] Data too large, data for [<http_request>] would be [${used}/${humanBytes(used)}], which is larger than the limit of ` +
        `[${trip}/${humanBytes(trip)}], real usage: [${used}/${humanBytes(used)}], new bytes reserved: [0/0b]`,
      { bytes_wanted: used, bytes_limit: trip },
    );
  }
}
