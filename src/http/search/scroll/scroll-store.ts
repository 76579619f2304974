/**
 * Open scrolls of this node, bounded in number (SVC_MAX_OPEN_SCROLLS) and in time: each expires
 * its keep-alive after its last use, checked on every access and by a sweeping timer. A scroll
 * belongs to the actor that opened it; to anyone else it does not exist.
 */
import { TooManyRequestsError } from '../../../common/index.js';
import type { SearchTarget } from '../../../engine/index.js';
import { OwnedStore } from '../owned-store.js';
import type { EsSearch } from '../search-request.js';

export interface ScrollContext {
  readonly id: string;
  /** principal label of the actor that opened it */
  readonly owner: string;
  /** index name and shard uuid at creation: a deleted or re-created index ends the scroll */
  readonly indices: ReadonlyArray<{ name: string; uuid: string }>;
  /** the segments as they were at creation, growing ones cut at their doc count then */
  targets: readonly SearchTarget[];
  /** the search, its sort ending in `_doc` so that every position is unique */
  readonly search: EsSearch;
  /** sort values a hit shows (the `_doc` appended for paging is not shown), or undefined for all */
  readonly sortValuesShown: number | undefined;
  keepAliveMs: number;
  expiresAtMs: number;
  /** sort values of the last hit returned: the next page starts after them */
  after: unknown[] | undefined;
  /** the page being fetched: pages of one scroll are fetched one after the other */
  busy?: Promise<unknown>;
}

export interface ScrollStoreOptions {
  maxOpen: number;
  sweepIntervalMs?: number;
  now?: () => number;
}

export class ScrollStore extends OwnedStore<ScrollContext> {
  /** scrolls being opened (their first page is running): they count against the limit */
  private reserved = 0;

  constructor(private readonly opts: ScrollStoreOptions) {
    super(opts);
  }

  private assertCapacity(): void {
    if (this.entries.size + this.reserved < this.opts.maxOpen) return;
    this.sweep();
    if (this.entries.size + this.reserved < this.opts.maxOpen) return;
    throw new TooManyRequestsError(
      `Trying to create too many scroll contexts. Must be less than or equal to: [${this.opts.maxOpen}]. ` +
        'This limit can be set by changing the [SVC_MAX_OPEN_SCROLLS] setting; clear scrolls that are done with DELETE /_search/scroll',
    );
  }

  /**
   * Holds a place for a scroll about to be opened, or throws 429 when all are taken; call
   * before the first page's work, then `add` the scroll or `release` the place.
   */
  reserve(): void {
    this.assertCapacity();
    this.reserved++;
  }

  release(): void {
    if (this.reserved > 0) this.reserved--;
  }

  /** Adds a scroll in a place taken with `reserve`. */
  add(context: ScrollContext): void {
    this.release();
    this.put(context);
  }

  /** Marks a use: the scroll lives `keepAliveMs` (the new one when given) from now. */
  touch(context: ScrollContext, keepAliveMs?: number): void {
    if (keepAliveMs !== undefined) context.keepAliveMs = keepAliveMs;
    context.expiresAtMs = this.now() + context.keepAliveMs;
  }

  /** Clears every live scroll of `owner`; returns how many. */
  removeAll(owner: string): number {
    this.sweep();
    let n = 0;
    for (const [id, context] of this.entries) {
      if (context.owner === owner && this.entries.delete(id)) n++;
    }
    return n;
  }
}
