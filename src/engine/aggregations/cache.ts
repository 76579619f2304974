/**
 * A small LRU of per-segment partial results, for immutable segment files only (a memtable keeps
 * growing under the same id). Keyed by segment id, visible doc count and a canonical key of the
 * query and of the aggregation options that shape a segment's partial. Bounded in bytes; its
 * bytes are held on the node's aggregation breaker, which evicts from here before it refuses a
 * request.
 */
import type { AggregationBreaker } from './memory.js';
import { retainedBytes, type Partial } from './partial.js';

interface Entry {
  partials: Partial[];
  bytes: number;
}

export class AggregationCache {
  private readonly entries = new Map<string, Entry>();
  private totalBytes = 0;

  constructor(
    readonly maxBytes: number,
    private readonly breaker: AggregationBreaker,
    private readonly onChange: (bytes: number, count: number) => void = () => undefined,
  ) {
    breaker.setEvictor((wanted) => this.evict(wanted));
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Partial[] | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.partials;
  }

  /** Keeps the partials when they fit (an entry may take at most a quarter of the cache). */
  put(key: string, partials: Partial[]): void {
    if (this.maxBytes <= 0 || this.entries.has(key)) return;
    let bytes = key.length * 2 + 64;
    for (const p of partials) bytes += retainedBytes(p);
    if (bytes > this.maxBytes / 4) return;
    while (this.totalBytes + bytes > this.maxBytes && this.entries.size > 0) this.evictOldest();
    if (!this.breaker.tryReserve(bytes)) return;
    this.entries.set(key, { partials, bytes });
    this.totalBytes += bytes;
    this.onChange(this.totalBytes, this.entries.size);
  }

  /** Drops entries, oldest first, until `wanted` bytes are freed or nothing is left. */
  evict(wanted: number): void {
    let freed = 0;
    while (freed < wanted && this.entries.size > 0) freed += this.evictOldest();
  }

  clear(): void {
    this.evict(Infinity);
  }

  private evictOldest(): number {
    const [key, entry] = this.entries.entries().next().value as [string, Entry];
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
    this.breaker.release(entry.bytes);
    this.onChange(this.totalBytes, this.entries.size);
    return entry.bytes;
  }
}
