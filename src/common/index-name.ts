/**
 * Elasticsearch's rules for index names (7.x): lowercase, no reserved characters, not starting
 * with `-`, `_` or `+`, not `.` or `..`, at most 255 bytes.
 */
import { InvalidIndexNameError } from './errors.js';

const FORBIDDEN = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ',', '#', ':'];

/** Throws InvalidIndexNameError when `name` may not name an index. */
export function validateIndexName(name: string): void {
  if (name.length === 0) throw new InvalidIndexNameError(name, 'must not be empty');
  for (const ch of FORBIDDEN) {
    if (name.includes(ch)) {
      throw new InvalidIndexNameError(name, `must not contain the following characters [${FORBIDDEN.join(', ')}]`);
    }
  }
  if (name !== name.toLowerCase()) throw new InvalidIndexNameError(name, 'must be lowercase');
  if (/^[-_+]/.test(name)) throw new InvalidIndexNameError(name, "must not start with '_', '-', or '+'");
  if (name === '.' || name === '..') throw new InvalidIndexNameError(name, "must not be '.' or '..'");
  if (Buffer.byteLength(name) > 255) throw new InvalidIndexNameError(name, 'index name is too long, (' + Buffer.byteLength(name) + ' > 255)');
}
