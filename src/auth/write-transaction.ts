/**
 * How every change to access-control records runs: in one transaction, retried when
 * PostgreSQL reports a serialization failure or deadlock (another change got there first), with
 * a unique-index race reported as 409 rather than 500.
 */
import { ConflictError } from '../common/index.js';
import { RecordConflictError } from './records.js';

const SERIALIZATION_RETRIES = 3;

export async function writeTransaction<Repo, T>(
  transaction: (fn: (tx: Repo) => Promise<T>) => Promise<T>,
  fn: (tx: Repo) => Promise<T>,
  conflict: (err: RecordConflictError) => ConflictError,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction(fn);
    } catch (err) {
      if (err instanceof RecordConflictError) throw conflict(err);
      if (attempt < SERIALIZATION_RETRIES && isSerializationFailure(err)) continue;
      throw err;
    }
  }
}

/** PostgreSQL's serialization_failure and deadlock_detected: the transaction may simply be retried. */
function isSerializationFailure(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === '40001' || code === '40P01';
}
