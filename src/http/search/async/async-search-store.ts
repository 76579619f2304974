/**
 * Async searches of this node: running ones and finished ones kept for later reads, each until
 * its expiration (checked on every access and by a sweeping timer). A search belongs to the actor
 * that submitted it; to anyone else it does not exist. The number kept is bounded: one more is
 * refused with 429 until some expire or are deleted.
 */
import { randomBytes } from 'node:crypto';
import { NotFoundError, TooManyRequestsError, type SvcError } from '../../../common/index.js';
import { OwnedStore } from '../owned-store.js';

export type AsyncOutcome = { ok: true; responseText: string } | { ok: false; error: SvcError | Error };

export interface AsyncSearchEntry {
  readonly id: string;
  /** principal label of the actor that submitted it */
  readonly owner: string;
  /** the indexes it reads (read access is checked again on every read) */
  readonly indices: readonly string[];
  readonly startTimeMs: number;
  /** performance.now() at submission, for `took` while running */
  readonly startedClockMs: number;
  /** `expiration_time_in_millis` */
  expiresAtMs: number;
  /** settles when the search ends; never rejects */
  readonly done: Promise<AsyncOutcome>;
  outcome?: AsyncOutcome;
}

export interface AsyncSearchStoreOptions {
  maxStored: number;
  sweepIntervalMs?: number;
  now?: () => number;
}

const ID_BYTES = 24;

export function newAsyncSearchId(): string {
  return randomBytes(ID_BYTES).toString('base64url');
}

/** Unknown, expired, deleted, or submitted by another actor: all look the same, as in Elasticsearch. */
export function asyncSearchMissing(id: string): NotFoundError {
  return new NotFoundError(id, 'resource_not_found_exception');
}

export class AsyncSearchStore extends OwnedStore<AsyncSearchEntry> {
  constructor(private readonly opts: AsyncSearchStoreOptions) {
    super(opts);
  }

  /** Throws 429 when no more searches can be kept. */
  assertRoom(): void {
    if (this.entries.size < this.opts.maxStored) return;
    this.sweep();
    if (this.entries.size < this.opts.maxStored) return;
    throw new TooManyRequestsError(
      `Trying to keep too many async searches. Must be less than or equal to: [${this.opts.maxStored}]; ` +
        'delete the ones that are done with DELETE /_async_search/<id> or use a shorter keep_alive',
    );
  }

  add(entry: AsyncSearchEntry): void {
    this.put(entry);
  }
}
