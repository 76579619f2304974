/**
 * The retry policy: bounded attempts, exponential backoff with full jitter, only for transient
 * failures. Used for whole operations (RetryingObjectStore) and for the parts of a multipart
 * upload, so that one failed part of a 1 GB file does not restart the file.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isTransientError } from './errors.js';

export interface RetryPolicy {
  /** attempts in all, the first included; 1 means no retry */
  maxAttempts: number;
  /** the first backoff is drawn from [0, baseDelayMs] */
  baseDelayMs: number;
  /** no backoff is longer than this */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 5_000 };

/** Told before each retry, e.g. to log it. */
export type RetryListener = (event: { op: string; key: string; attempt: number; delayMs: number; error: unknown }) => void;

/** The backoff before retry number `retry` (1-based): uniform in [0, min(max, base * 2^(retry-1))]. */
export function backoffDelayMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

export function checkRetryPolicy(policy: RetryPolicy): RetryPolicy {
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) throw new RangeError('maxAttempts must be an integer of at least 1');
  if (!(policy.baseDelayMs >= 0) || !(policy.maxDelayMs >= policy.baseDelayMs)) throw new RangeError('delays must satisfy 0 <= baseDelayMs <= maxDelayMs');
  return policy;
}

/** Runs `fn` until it succeeds, fails with a non-transient error, or runs out of attempts. */
export async function withRetries<T>(
  policy: RetryPolicy,
  what: { op: string; key: string },
  fn: () => Promise<T>,
  onRetry?: RetryListener,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= policy.maxAttempts || !isTransientError(error)) throw error;
      const delayMs = backoffDelayMs(policy, attempt);
      onRetry?.({ ...what, attempt, delayMs, error });
      if (delayMs > 0) await sleep(delayMs);
    }
  }
}
