/**
 * Bucket keys of histograms: the start of the bucket holding a value, and the start of the next
 * bucket. Date buckets start on the wall clock of the time zone (a calendar day is a local day,
 * 23 or 25 hours long across a daylight-saving change), shifted by `offset`.
 */
import type { CalendarUnit, DateInterval } from './spec.js';
import { TimeZone } from './time-zone.js';
import { BadRequestError } from '../../common/index.js';

export interface Rounding {
  round(value: number): number;
  /** the key of the bucket after the one with key `key` */
  next(key: number): number;
  /** the spacing when every bucket is equally wide (then keys are offset + k * fixedMs), else null */
  readonly fixedWidth: number | null;
}

export function histogramRounding(interval: number, offset: number): Rounding {
  return {
    round: (v) => Math.floor((v - offset) / interval) * interval + offset,
    next: (key) => {
      const next = (Math.round((key - offset) / interval) + 1) * interval + offset;
      // an interval below the precision of a double near `key` makes no next bucket: every
      // loop over the buckets would run (and allocate) for ever
      if (!(next > key)) throw new BadRequestError(`[interval] ${interval} is too small for values near ${key}: the buckets cannot be told apart`);
      return next;
    },
    fixedWidth: interval,
  };
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

function floorTo(v: number, unit: number): number {
  return Math.floor(v / unit) * unit;
}

function startOfUnit(local: number, unit: CalendarUnit): number {
  switch (unit) {
    case 'minute':
      return floorTo(local, MINUTE_MS);
    case 'hour':
      return floorTo(local, HOUR_MS);
    case 'day':
      return floorTo(local, DAY_MS);
    case 'week': {
      const day = floorTo(local, DAY_MS);
      const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
      return day - sinceMonday * DAY_MS;
    }
    default: {
      const d = new Date(local);
      const year = d.getUTCFullYear();
      const month = unit === 'month' ? d.getUTCMonth() : unit === 'quarter' ? d.getUTCMonth() - (d.getUTCMonth() % 3) : 0;
      const out = new Date(0);
      out.setUTCFullYear(year, month, 1);
      return out.getTime();
    }
  }
}

function addUnit(localStart: number, unit: CalendarUnit): number {
  switch (unit) {
    case 'minute':
      return localStart + MINUTE_MS;
    case 'hour':
      return localStart + HOUR_MS;
    case 'day':
      return localStart + DAY_MS;
    case 'week':
      return localStart + 7 * DAY_MS;
    default: {
      const d = new Date(localStart);
      const months = unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12;
      const out = new Date(0);
      out.setUTCFullYear(d.getUTCFullYear(), d.getUTCMonth() + months, 1);
      return out.getTime();
    }
  }
}

const UNIT_MS: Partial<Record<CalendarUnit, number>> = { minute: MINUTE_MS, hour: HOUR_MS, day: DAY_MS, week: 7 * DAY_MS };
/** 1970-01-01 was a Thursday: weeks (from Monday) start 4 days after the epoch */
const WEEK_SHIFT_MS = 4 * DAY_MS;

export function dateRounding(interval: DateInterval, zone: TimeZone, offset: number): Rounding {
  const width = interval.kind === 'fixed' ? interval.ms : UNIT_MS[interval.unit];
  if (width !== undefined && zone.fixedOffsetMs !== null) {
    // equal widths on a fixed offset: plain arithmetic
    const shift = interval.kind === 'calendar' && interval.unit === 'week' ? WEEK_SHIFT_MS : 0;
    return histogramRounding(width, offset - zone.fixedOffsetMs + shift);
  }
  if (interval.kind === 'fixed') {
    const ms = interval.ms;
    return {
      round: (v) => zone.fromLocal(floorTo(zone.toLocal(v - offset), ms)) + offset,
      next: (key) => {
        const k = key - offset;
        const n = zone.fromLocal(floorTo(zone.toLocal(k), ms) + ms);
        return (n > k ? n : k + ms) + offset;
      },
      fixedWidth: null,
    };
  }
  const unit = interval.unit;
  return {
    round: (v) => zone.fromLocal(startOfUnit(zone.toLocal(v - offset), unit)) + offset,
    next: (key) => {
      const k = key - offset;
      const n = zone.fromLocal(addUnit(startOfUnit(zone.toLocal(k), unit), unit));
      return (n > k ? n : zone.fromLocal(addUnit(addUnit(startOfUnit(zone.toLocal(k), unit), unit), unit))) + offset;
    },
    fixedWidth: null,
  };
}
