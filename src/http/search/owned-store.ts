/**
 * A node's table of things searches leave open for later requests (scrolls, async searches):
 * each entry belongs to the actor that made it and expires at a time of its own, checked on every
 * access and by a sweeping timer. To any other actor an entry does not exist.
 */
export interface OwnedEntry {
  readonly id: string;
  /** principal label of the actor that made it */
  readonly owner: string;
  expiresAtMs: number;
}

const DEFAULT_SWEEP_INTERVAL_MS = 10_000;

export class OwnedStore<E extends OwnedEntry> {
  protected readonly entries = new Map<string, E>();
  private readonly timer: NodeJS.Timeout;
  readonly now: () => number;

  constructor(opts: { sweepIntervalMs?: number; now?: () => number }) {
    this.now = opts.now ?? Date.now;
    this.timer = setInterval(() => this.sweep(), opts.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  get size(): number {
    return this.entries.size;
  }

  protected put(entry: E): void {
    this.entries.set(entry.id, entry);
  }

  /** The live entry with this id made by `owner`, or undefined. */
  get(id: string, owner: string): E | undefined {
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs <= this.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.owner === owner ? entry : undefined;
  }

  /** Removes one entry of `owner`; false when there was none. */
  remove(id: string, owner: string): boolean {
    if (this.get(id, owner) === undefined) return false;
    return this.entries.delete(id);
  }

  /** Drops expired entries; returns how many. */
  sweep(): number {
    const now = this.now();
    let n = 0;
    for (const [id, entry] of this.entries) {
      if (entry.expiresAtMs <= now && this.entries.delete(id)) n++;
    }
    return n;
  }

  close(): void {
    clearInterval(this.timer);
    this.entries.clear();
  }
}
