/**
 * What segment readers keep in memory (decoded columns, keyword term lists, points indexes,
 * decoded postings, term blocks, doc blocks) under one budget for the node
 * (SVC_READER_CACHE_BYTES), shared by the main thread and the query threads.
 *
 * Each thread keeps its own readers and so its own entries (a thread cannot use another's
 * arrays), in one least-recently-used order over all its readers. The budget is one counter in a
 * SharedArrayBuffer that every thread charges with Atomics before it keeps an entry, rather than
 * a fixed part of the budget per thread: the threads do not need the same amount (the main thread
 * searches only memtables and tiny counts, a query thread whatever it is given), and a part a
 * thread does not use would be lost to the others. So that one thread cannot hold the whole
 * budget for ever, a thread that finds no room while it holds less than its fair share (the
 * budget divided by the threads sharing it) raises a pressure count; every thread that sees it
 * change gives back what it holds beyond its share, oldest first, at its next cache access.
 *
 * An entry that cannot be kept (larger than the budget, or no room left after the thread gave
 * back all of its own) is still returned to the search that built it, and an evicted entry is
 * only dropped from the cache's count: until the current turn of the thread's event loop ends
 * (for a query thread: its search), both stay findable, outside the budget, so that a search that
 * asks again for what it built (a doc block's keyword column for each of its sources, say)
 * does not build it again and again. A running search that holds an array keeps using it.
 *
 * Bytes are counted in units of 64 (an Int32 counter then covers 128 GiB), rounded up.
 */

const UNIT_BYTES = 64;
/** a Map slot and the entry object that links it into the order */
const ENTRY_OVERHEAD_BYTES = 96;
/** the most threads that may share one budget at a time (a replaced thread's slot is freed when it exits) */
export const MAX_READER_CACHE_SLOTS = 64;
/** for threads given no node budget (segment writer threads, tests): a budget of their own */
export const STANDALONE_READER_CACHE_BYTES = 64 * 1024 * 1024;
export const MAX_READER_CACHE_BYTES = 2 ** 31 * UNIT_BYTES - UNIT_BYTES;

// Int32 words of the shared buffer
const TOTAL = 0;
const LIMIT = 1;
const LIVE = 2;
const PRESSURE = 3;
const SLOT_IN_USE = 4;
const SLOT_UNITS = SLOT_IN_USE + MAX_READER_CACHE_SLOTS;
const WORDS = SLOT_UNITS + MAX_READER_CACHE_SLOTS;

/** The node's budget: what every thread holds, in one SharedArrayBuffer. */
export class ReaderCacheBudget {
  readonly words: Int32Array;

  private constructor(readonly buffer: SharedArrayBuffer) {
    this.words = new Int32Array(buffer);
  }

  static create(bytes: number): ReaderCacheBudget {
    if (!Number.isInteger(bytes) || bytes < 0 || bytes > MAX_READER_CACHE_BYTES) throw new RangeError(`reader cache budget ${bytes} out of range`);
    const budget = new ReaderCacheBudget(new SharedArrayBuffer(WORDS * 4));
    budget.words[LIMIT] = Math.floor(bytes / UNIT_BYTES);
    return budget;
  }

  /** The same budget in another thread (the buffer passed in its workerData). */
  static attach(buffer: SharedArrayBuffer): ReaderCacheBudget {
    return new ReaderCacheBudget(buffer);
  }

  get limitBytes(): number {
    return this.words[LIMIT]! * UNIT_BYTES;
  }

  /** bytes every thread holds now */
  get usedBytes(): number {
    return Atomics.load(this.words, TOTAL) * UNIT_BYTES;
  }

  /** threads sharing the budget */
  get threads(): number {
    return Atomics.load(this.words, LIVE);
  }

  /** bytes the thread of a slot holds now */
  slotBytes(slot: number): number {
    return Atomics.load(this.words, SLOT_UNITS + slot) * UNIT_BYTES;
  }

  /** A slot for a thread about to share the budget; -1 when all are taken (that thread keeps nothing). */
  acquireSlot(): number {
    for (let s = 0; s < MAX_READER_CACHE_SLOTS; s++) {
      if (Atomics.compareExchange(this.words, SLOT_IN_USE + s, 0, 1) === 0) {
        Atomics.add(this.words, LIVE, 1);
        return s;
      }
    }
    return -1;
  }

  /**
   * Gives back what a thread that has exited held: only after its exit, so that it cannot charge
   * its slot again.
   */
  releaseSlot(slot: number): void {
    if (slot < 0 || Atomics.load(this.words, SLOT_IN_USE + slot) === 0) return;
    const units = Atomics.exchange(this.words, SLOT_UNITS + slot, 0);
    Atomics.sub(this.words, TOTAL, units);
    Atomics.sub(this.words, LIVE, 1);
    Atomics.store(this.words, SLOT_IN_USE + slot, 0);
    // a thread that was told to shrink for this one's sake may now grow again: nothing to signal
  }
}

interface Entry {
  space: CacheSpace<unknown, unknown>;
  key: unknown;
  value: unknown;
  units: number;
  older: Entry | null;
  newer: Entry | null;
}

/** One thread's share of the budget: its entries of every reader, oldest first. */
export class ReaderCache {
  private oldest: Entry | null = null;
  private newest: Entry | null = null;
  private units = 0;
  private pressureSeen: number;
  /** spaces holding entries for the current turn only */
  private turnSpaces: Array<CacheSpace<unknown, unknown>> = [];

  constructor(
    readonly budget: ReaderCacheBudget,
    readonly slot: number,
  ) {
    this.pressureSeen = Atomics.load(budget.words, PRESSURE);
  }

  /** what this thread holds */
  get heldBytes(): number {
    return this.units * UNIT_BYTES;
  }

  /** A keyed part of the cache (one per reader and kind of entry); `clear()` it when the reader closes. */
  space<K, V>(): CacheSpace<K, V> {
    return new CacheSpace<K, V>(this);
  }

  /** Forgets the entries held for the current turn only (run at the end of each turn). */
  endTurn(): void {
    const spaces = this.turnSpaces;
    this.turnSpaces = [];
    for (const space of spaces) space.endTurn();
  }

  /** @internal a space now holds an entry for this turn */
  holdsForTurn(space: CacheSpace<unknown, unknown>): void {
    if (this.turnSpaces.length === 0) setImmediate(() => this.endTurn());
    this.turnSpaces.push(space);
  }

  /** @internal marks an entry most recently used */
  touch(e: Entry): void {
    if (e !== this.newest) {
      this.unlink(e);
      this.append(e);
    }
    // after the move: giving back (oldest first) may drop this entry too, its caller still has it
    this.giveBackOnPressure();
  }

  /** @internal charges the budget for a new entry and links it; false when it cannot be kept */
  admit(e: Entry): boolean {
    const words = this.budget.words;
    if (this.slot < 0 || e.units > words[LIMIT]!) return false;
    this.giveBackOnPressure();
    let pressing = false;
    for (;;) {
      const total = Atomics.load(words, TOTAL);
      if (total + e.units <= words[LIMIT]!) {
        if (Atomics.compareExchange(words, TOTAL, total, total + e.units) !== total) continue;
        // the total first: a thread stopped between the two leaves the total too high, never too low
        Atomics.add(words, SLOT_UNITS + this.slot, e.units);
        this.units += e.units;
        this.append(e);
        return true;
      }
      if (this.units + e.units <= this.share()) pressing = true;
      if (this.oldest === null) break;
      this.evict(this.oldest);
    }
    if (pressing) {
      // others hold more than their share: they give it back at their next access
      this.pressureSeen = Atomics.add(words, PRESSURE, 1) + 1;
    }
    return false;
  }

  /** @internal unlinks an entry and gives its bytes back */
  remove(e: Entry): void {
    this.unlink(e);
    // the slot first: a thread stopped between the two leaves the total too high, never too low
    Atomics.sub(this.budget.words, SLOT_UNITS + this.slot, e.units);
    Atomics.sub(this.budget.words, TOTAL, e.units);
    this.units -= e.units;
  }

  private share(): number {
    return Math.floor(this.budget.words[LIMIT]! / Math.max(1, Atomics.load(this.budget.words, LIVE)));
  }

  private giveBackOnPressure(): void {
    const pressure = Atomics.load(this.budget.words, PRESSURE);
    if (pressure === this.pressureSeen) return;
    this.pressureSeen = pressure;
    const share = this.share();
    while (this.units > share && this.oldest !== null) this.evict(this.oldest);
  }

  private evict(e: Entry): void {
    e.space.forget(e.key);
    this.remove(e);
  }

  private append(e: Entry): void {
    e.older = this.newest;
    e.newer = null;
    if (this.newest !== null) this.newest.newer = e;
    else this.oldest = e;
    this.newest = e;
  }

  private unlink(e: Entry): void {
    if (e.older !== null) e.older.newer = e.newer;
    else this.oldest = e.newer;
    if (e.newer !== null) e.newer.older = e.older;
    else this.newest = e.older;
    e.older = e.newer = null;
  }
}

/** Entries of one kind of one reader, in the thread's cache. */
export class CacheSpace<K, V> {
  private readonly map = new Map<K, Entry>();
  /** values not kept or evicted during the current turn (reader-cache.ts explains why) */
  private turn: Map<K, V> | null = null;

  constructor(private readonly cache: ReaderCache) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return this.turn === null ? undefined : this.turn.get(key);
    this.cache.touch(e);
    return e.value as V;
  }

  /** Keeps the value if the budget allows (`bytes` is what it holds); true when kept. */
  set(key: K, value: V, bytes: number): boolean {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.map.delete(key);
      this.cache.remove(old);
    }
    const e: Entry = { space: this as CacheSpace<unknown, unknown>, key, value, units: Math.ceil((bytes + ENTRY_OVERHEAD_BYTES) / UNIT_BYTES), older: null, newer: null };
    if (!this.cache.admit(e)) {
      this.holdForTurn(key, value);
      return false;
    }
    this.map.set(key, e);
    return true;
  }

  clear(): void {
    for (const e of this.map.values()) this.cache.remove(e);
    this.map.clear();
    this.turn = null;
  }

  /** @internal the cache evicted the entry */
  forget(key: K): void {
    const e = this.map.get(key);
    this.map.delete(key);
    if (e !== undefined) this.holdForTurn(key, e.value as V);
  }

  /** @internal the turn ended */
  endTurn(): void {
    this.turn = null;
  }

  private holdForTurn(key: K, value: V): void {
    if (this.turn === null) {
      this.turn = new Map();
      this.cache.holdsForTurn(this as CacheSpace<unknown, unknown>);
    }
    this.turn.set(key, value);
  }
}

/** Bytes a JS string holds, about: two per code unit (what a two-byte string takes) and its header. */
export function stringBytes(s: string): number {
  return 32 + 2 * s.length;
}

/** Bytes an array of strings holds: its slots and the strings. */
export function stringsBytes(strings: readonly string[]): number {
  let n = 16 + 8 * strings.length;
  for (let i = 0; i < strings.length; i++) n += stringBytes(strings[i]!);
  return n;
}

let threadCache: ReaderCache | null = null;

/** Makes this thread's readers keep their entries under the node's budget (before it opens any). */
export function useReaderCacheBudget(budget: ReaderCacheBudget, slot: number): ReaderCache {
  threadCache = new ReaderCache(budget, slot);
  return threadCache;
}

/** This thread's cache; a standalone budget when the thread was given none. */
export function currentReaderCache(): ReaderCache {
  if (threadCache === null) {
    const budget = ReaderCacheBudget.create(STANDALONE_READER_CACHE_BYTES);
    threadCache = new ReaderCache(budget, budget.acquireSlot());
  }
  return threadCache;
}
