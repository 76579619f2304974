/**
 * Walks a field's sorted term dictionary to find the terms a multi-term query (prefix, wildcard,
 * regexp, keyword range, case-insensitive term) stands for.
 */
import { BadRequestError } from '../../common/errors.js';
import type { SegmentReader } from '../segment-reader.js';
import { type Deadline, TICK_MASK } from './deadline.js';

/** More terms than this from one pattern in one segment fail the query. */
export const MAX_EXPANSIONS = 10_000;

export interface ExpansionOptions {
  /** terms not starting with this are skipped (the walk starts there and stops past it) */
  prefix: string;
  /** extra test a term must pass */
  accept?: (term: string) => boolean;
  /** stop quietly after this many terms (match_phrase_prefix `max_expansions`) */
  limit?: number;
  /** fail with too_many_clauses beyond this many terms */
  cap?: number;
  /** describes the query in the error message */
  what: string;
  deadline: Deadline;
}

export function expandTerms(segment: SegmentReader, field: string, opts: ExpansionOptions): string[] {
  const out: string[] = [];
  const cap = opts.cap ?? MAX_EXPANSIONS;
  const limit = opts.limit ?? Infinity;
  let seen = 0;
  for (const term of segment.terms(field, opts.prefix === '' ? undefined : opts.prefix)) {
    if (!term.startsWith(opts.prefix)) break;
    if ((++seen & TICK_MASK) === 0) opts.deadline.check();
    if (opts.accept !== undefined && !opts.accept(term)) continue;
    if (out.length >= limit) break;
    if (out.length >= cap) {
      throw new BadRequestError(
        `${opts.what} on field [${field}] matches more than ${cap} terms`,
        'too_many_clauses',
      );
    }
    out.push(term);
  }
  return out;
}

export interface TermRange {
  lower?: string;
  lowerInclusive: boolean;
  upper?: string;
  upperInclusive: boolean;
}

/** Terms within lexicographic bounds (UTF-16 code unit order, as the dictionary is sorted). */
export function termsInRange(segment: SegmentReader, field: string, range: TermRange, deadline: Deadline): string[] {
  const out: string[] = [];
  let seen = 0;
  for (const term of segment.terms(field, range.lower)) {
    if ((++seen & TICK_MASK) === 0) deadline.check();
    if (range.lower !== undefined && !range.lowerInclusive && term === range.lower) continue;
    if (range.upper !== undefined && (term > range.upper || (!range.upperInclusive && term === range.upper))) break;
    out.push(term);
  }
  return out;
}
