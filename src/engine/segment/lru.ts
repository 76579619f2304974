/**
 * A small least-recently-used cache bounded by entry count and by total bytes.
 */

export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  private bytes = 0;
  private newest: K | undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes = Infinity,
  ) {}

  get(key: K): V | undefined {
    const hit = this.map.get(key);
    if (hit === undefined) return undefined;
    // sequential scans hit the newest entry again and again: no need to move it
    if (key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, hit);
      this.newest = key;
    }
    return hit.value;
  }

  set(key: K, value: V, bytes = 0): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.bytes -= old.bytes;
      this.map.delete(key);
    }
    this.map.set(key, { value, bytes });
    this.newest = key;
    this.bytes += bytes;
    for (const [k, e] of this.map) {
      if (this.map.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      if (k === key) break;
      this.map.delete(k);
      this.bytes -= e.bytes;
    }
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
    this.newest = undefined;
  }
}
