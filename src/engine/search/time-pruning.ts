/**
 * Segment pruning by time: the `_ts` interval a query requires, compared with a segment's
 * [minTs, maxTs] before any of its data is read.
 */
import type { Query } from '../../query/index.js';
import type { SegmentReader } from '../segment-reader.js';
import { toDate } from './value-parse.js';

/** Inclusive `_ts` bounds every matching doc lies in; null when nothing can match. */
export type TsInterval = readonly [number, number] | null;

const UNBOUNDED: TsInterval = [-Infinity, Infinity];

function meet(a: TsInterval, b: TsInterval): TsInterval {
  if (a === null || b === null) return null;
  const lo = Math.max(a[0], b[0]);
  const hi = Math.min(a[1], b[1]);
  return lo > hi ? null : [lo, hi];
}

function hull(a: TsInterval, b: TsInterval): TsInterval {
  if (a === null) return b;
  if (b === null) return a;
  return [Math.min(a[0], b[0]), Math.max(a[1], b[1])];
}

function safely(f: () => TsInterval): TsInterval {
  try {
    return f();
  } catch {
    // an unreadable bound is reported by planning; here it just prunes nothing
    return UNBOUNDED;
  }
}

/** A conservative `_ts` interval for the query (exclusive bounds are treated as inclusive). */
export function requiredTsInterval(query: Query, nowMs: number): TsInterval {
  switch (query.kind) {
    case 'match_none':
      return null;
    case 'range': {
      if (query.field !== '_ts') return UNBOUNDED;
      const opts = {
        nowMs,
        ...(query.format === undefined ? {} : { format: query.format }),
        ...(query.timeZone === undefined ? {} : { timeZone: query.timeZone }),
      };
      return safely(() => {
        const lower = query.gt ?? query.gte;
        const upper = query.lt ?? query.lte;
        const lo = lower === undefined ? -Infinity : toDate(lower, opts, query.gt !== undefined);
        const hi = upper === undefined ? Infinity : toDate(upper, opts, query.lt === undefined);
        return lo > hi ? null : [lo, hi];
      });
    }
    case 'term':
    case 'match': {
      if (query.field !== '_ts') return UNBOUNDED;
      const value = query.kind === 'term' ? query.value : query.text;
      return safely(() => [toDate(value, { nowMs }, false), toDate(value, { nowMs }, true)]);
    }
    case 'constant_score':
      return requiredTsInterval(query.filter, nowMs);
    case 'bool': {
      let acc: TsInterval = UNBOUNDED;
      for (const c of [...query.must, ...query.filter]) acc = meet(acc, requiredTsInterval(c, nowMs));
      const required = query.must.length + query.filter.length;
      const msm = query.minimumShouldMatch ?? (required === 0 ? 1 : 0);
      if ((msm > 0 || required === 0) && query.should.length > 0) {
        let any: TsInterval = null;
        for (const c of query.should) any = hull(any, requiredTsInterval(c, nowMs));
        acc = meet(acc, any);
      }
      return acc;
    }
    default:
      return UNBOUNDED;
  }
}

/** False when the segment holds no doc the query's time bounds allow. */
export function segmentCanMatch(segment: SegmentReader, interval: TsInterval): boolean {
  if (interval === null || segment.numDocs === 0) return false;
  return interval[1] >= segment.minTs && interval[0] <= segment.maxTs;
}
