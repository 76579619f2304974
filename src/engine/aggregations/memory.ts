/**
 * Memory accounting for aggregations. One breaker per node holds the budget
 * (SVC_AGGREGATION_MEMORY_BYTES) shared by every running aggregation and the result cache; each
 * request charges it through an AggregationMemory before it allocates and gives everything back
 * when it ends. A charge that does not fit first evicts cached results, then fails the request
 * with a CircuitBreakingError (429). The bucket cap (SVC_MAX_BUCKETS) is a separate count.
 */
import { BadRequestError, CircuitBreakingError } from '../../common/errors.js';
import { humanBytes } from '../../common/human-bytes.js';

export class AggregationBreaker {
  private usedBytes = 0;
  private peak = 0;
  private evictor: ((wantedBytes: number) => void) | null = null;

  constructor(readonly limitBytes: number) {}

  get used(): number {
    return this.usedBytes;
  }

  /** Highest `used` seen since the last reset (for tests and diagnostics). */
  get peakBytes(): number {
    return this.peak;
  }

  resetPeak(): void {
    this.peak = this.usedBytes;
  }

  /** Called with the number of bytes missing when a charge does not fit (the cache evicts). */
  setEvictor(evictor: (wantedBytes: number) => void): void {
    this.evictor = evictor;
  }

  /** Takes `bytes` from the budget or throws CircuitBreakingError naming `label`. */
  reserve(bytes: number, label: string): void {
    if (this.usedBytes + bytes > this.limitBytes && this.evictor !== null) {
      this.evictor(this.usedBytes + bytes - this.limitBytes);
    }
    const wanted = this.usedBytes + bytes;
    if (wanted > this.limitBytes) {
      throw new CircuitBreakingError(
        `[aggregations] Data too large, data for [${label}] would be [${wanted}/${humanBytes(wanted)}], ` +
          `which is larger than the limit of [${this.limitBytes}/${humanBytes(this.limitBytes)}]`,
        { bytes_wanted: wanted, bytes_limit: this.limitBytes },
      );
    }
    this.usedBytes = wanted;
    if (wanted > this.peak) this.peak = wanted;
  }

  /** Takes `bytes` only if they fit without evicting anything; for optional holdings (the cache). */
  tryReserve(bytes: number): boolean {
    if (this.usedBytes + bytes > this.limitBytes) return false;
    this.usedBytes += bytes;
    if (this.usedBytes > this.peak) this.peak = this.usedBytes;
    return true;
  }

  release(bytes: number): void {
    this.usedBytes = Math.max(0, this.usedBytes - bytes);
  }
}

/** One request's account with the breaker; `close()` returns whatever is still charged. */
export class AggregationMemory {
  private charged = 0;
  private buckets = 0;

  constructor(
    private readonly breaker: AggregationBreaker,
    readonly maxBuckets: number,
  ) {}

  get chargedBytes(): number {
    return this.charged;
  }

  /** Charges `bytes` before they are allocated; throws CircuitBreakingError when over budget. */
  charge(bytes: number, label: string): void {
    if (!(bytes > 0)) return;
    this.breaker.reserve(bytes, label);
    this.charged += bytes;
  }

  release(bytes: number): void {
    const b = Math.min(Math.max(0, bytes), this.charged);
    this.breaker.release(b);
    this.charged -= b;
  }

  /** Counts buckets of the response about to be built; over the cap is a 400, as in Elasticsearch. */
  consumeBuckets(n: number): void {
    this.buckets += n;
    if (this.buckets > this.maxBuckets) {
      throw new BadRequestError(
        `Trying to create too many buckets. Must be less than or equal to: [${this.maxBuckets}] but was [${this.buckets}]. ` +
          'This limit can be set by changing the [search.max_buckets] cluster level setting.',
        'too_many_buckets_exception',
        { max_buckets: this.maxBuckets },
      );
    }
  }

  close(): void {
    this.breaker.release(this.charged);
    this.charged = 0;
  }
}

/** A child account: everything it charged goes back at once with `close()` (per-segment collectors). */
export class MemoryScope {
  private charged = 0;

  constructor(readonly memory: AggregationMemory) {}

  charge(bytes: number, label: string): void {
    if (!(bytes > 0)) return;
    this.memory.charge(bytes, label);
    this.charged += bytes;
  }

  release(bytes: number): void {
    const b = Math.min(Math.max(0, bytes), this.charged);
    this.memory.release(b);
    this.charged -= b;
  }

  close(): void {
    this.memory.release(this.charged);
    this.charged = 0;
  }
}

/** Anything that can be charged: a request account or a scope of it. */
export interface Account {
  charge(bytes: number, label: string): void;
  release(bytes: number): void;
}

/** Rough per-object costs of the V8 heap, used for estimates. */
export const OBJECT_BYTES = 64;
export const REF_BYTES = 8;

type Typed = Float64Array | Int32Array | Uint32Array | Uint8Array;

/**
 * The array itself when it already holds `minLength` slots; otherwise a larger copy (at least
 * double), charged before it is allocated, with new slots set to `fill`. The old array's bytes
 * are released.
 */
export function grow<T extends Typed>(array: T, minLength: number, account: Account, label: string, fill = 0): T {
  if (array.length >= minLength) return array;
  const length = Math.max(minLength, array.length * 2, 8);
  account.charge(length * array.BYTES_PER_ELEMENT, label);
  const Ctor = array.constructor as new (n: number) => T;
  const next = new Ctor(length);
  (next as Float64Array).set(array as Float64Array);
  if (fill !== 0) next.fill(fill, array.length);
  account.release(array.byteLength);
  return next;
}

/** A new typed array of `length` slots, charged first. */
export function allocate<T extends Typed>(Ctor: new (n: number) => T, length: number, account: Account, label: string): T {
  const bytesPerElement = (Ctor as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  account.charge(length * bytesPerElement, label);
  return new Ctor(length);
}
