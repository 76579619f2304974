/** A unique-index violation on an access-control record, as the repositories report it. */
import { RecordConflictError } from '../auth/index.js';
import { isUniqueViolation } from './values.js';

/** Runs the query; a unique violation becomes `RecordConflictError(conflict)`. */
export async function uniqueOrConflict<T>(query: Promise<T>, conflict: string): Promise<T> {
  try {
    return await query;
  } catch (err) {
    if (isUniqueViolation(err)) throw new RecordConflictError(conflict);
    throw err;
  }
}
