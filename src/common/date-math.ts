/**
 * Elasticsearch date math: `now`, `now-15m/m`, `2024-01-01||+1M/d`, ISO 8601 dates and epoch
 * numbers, resolved to epoch milliseconds.
 *
 * Rounding follows Elasticsearch: with `roundUp` (range `gt` and `lte`) `/d` goes to the last
 * millisecond of the day, without it (`gte`, `lt`) to the first; a date written without its
 * time parts and without `||` math takes, with `roundUp`, the last millisecond of what is
 * missing (`2024-01-01` → 23:59:59.999, `2024-01-01T10:00` → 10:00:59.999), and month and day
 * default to 1 either way (as in Elasticsearch 7). Years, months, weeks and days are added on
 * the local calendar of the time zone, hours, minutes and seconds on the absolute time line.
 * A four-digit numeric string is read as epoch milliseconds, not as a year.
 */
import { BadRequestError } from './errors.js';

export interface DateMathOptions {
  /** what `now` means, epoch ms */
  nowMs: number;
  /** true for `gt`/`lte` bounds: round to the end of the unit */
  roundUp: boolean;
  /** `+01:00`, `-05:30`, `Z`, `UTC` or an IANA name; for dates without a zone and for rounding */
  timeZone?: string;
  /** Elasticsearch `format`; only `epoch_second` changes how numbers are read */
  format?: string;
}

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const MAX_EPOCH_MS = 8.64e15;

class DateMathError extends Error {}

export function parseDateMath(expr: string | number, opts: DateMathOptions): number {
  try {
    const zone = resolveZone(opts.timeZone);
    if (zone === undefined) throw new DateMathError(`unknown time zone [${opts.timeZone}]`);
    const epochSeconds = usesEpochSeconds(opts.format);
    if (typeof expr === 'number') return checkRange(fromEpochNumber(expr, epochSeconds));
    const text = expr.trim();
    let base: number;
    let math: string;
    if (text.startsWith('now')) {
      base = opts.nowMs;
      math = text.slice(3);
    } else {
      const sep = text.indexOf('||');
      if (sep === -1) return checkRange(parseBase(text, zone, opts.roundUp, epochSeconds));
      base = parseBase(text.slice(0, sep), zone, false, epochSeconds);
      math = text.slice(sep + 2);
    }
    return checkRange(applyMath(math, base, opts.roundUp, zone));
  } catch (err) {
    if (!(err instanceof DateMathError)) throw err;
    throw new BadRequestError(`failed to parse date field [${String(expr)}]`, 'parse_exception', {
      caused_by: { type: 'illegal_argument_exception', reason: err.message },
    });
  }
}

/**
 * A document's date value (`_ts` at ingest): epoch milliseconds as a number or numeric string,
 * or an ISO 8601 string (UTC unless it names a zone). Anything else is null.
 */
export function parseDateValue(value: unknown): number | null {
  try {
    if (typeof value === 'number') return Number.isFinite(value) ? checkRange(Math.floor(value)) : null;
    if (typeof value !== 'string') return null;
    return checkRange(parseBase(value.trim(), UTC, false, false));
  } catch (err) {
    if (err instanceof DateMathError) return null;
    throw err;
  }
}

/** Whether `time_zone` names a zone this module understands. */
export function isValidTimeZone(timeZone: string): boolean {
  return resolveZone(timeZone) !== undefined;
}

// ---- base dates ----

const NUMERIC = /^[+-]?\d+(?:\.\d+)?$/;
const ISO =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[Tt ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;

function usesEpochSeconds(format: string | undefined): boolean {
  if (!format) return false;
  for (const f of format.split('||')) {
    const name = f.trim();
    if (name === 'epoch_second') return true;
    if (name === 'epoch_millis') return false;
  }
  return false;
}

function fromEpochNumber(n: number, epochSeconds: boolean): number {
  if (!Number.isFinite(n)) throw new DateMathError(`[${n}] is not a valid epoch value`);
  return Math.floor(epochSeconds ? n * SECOND_MS : n);
}

function parseBase(text: string, zone: Zone, roundUp: boolean, epochSeconds: boolean): number {
  if (NUMERIC.test(text)) return fromEpochNumber(Number(text), epochSeconds);
  const m = ISO.exec(text);
  if (!m) throw new DateMathError(`[${text}] is not an ISO 8601 date or epoch number`);
  const year = Number(m[1]);
  const month = m[2] === undefined ? 1 : Number(m[2]);
  const day = m[3] === undefined ? 1 : Number(m[3]);
  const hour = m[4] === undefined ? (roundUp ? 23 : 0) : Number(m[4]);
  const minute = m[5] === undefined ? (roundUp ? 59 : 0) : Number(m[5]);
  const second = m[6] === undefined ? (roundUp ? 59 : 0) : Number(m[6]);
  const ms = m[7] === undefined ? (roundUp ? 999 : 0) : Number(m[7].slice(0, 3).padEnd(3, '0'));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month - 1)) {
    throw new DateMathError(`[${text}] is not a valid calendar date`);
  }
  if (hour > 23 || minute > 59 || second > 59) throw new DateMathError(`[${text}] is not a valid time`);
  const local = utcMs(year, month - 1, day) + hour * HOUR_MS + minute * MINUTE_MS + second * SECOND_MS + ms;
  const written = m[8];
  if (written === undefined) return fromLocal(zone, local);
  return local - fixedOffsetMs(written)!;
}

// ---- math ----

function applyMath(math: string, start: number, roundUp: boolean, zone: Zone): number {
  let t = start;
  let i = 0;
  while (i < math.length) {
    const op = math[i++]!;
    if (op !== '/' && op !== '+' && op !== '-') throw new DateMathError(`operator not supported for date math [${math}]`);
    if (i >= math.length) throw new DateMathError(`truncated date math [${math}]`);
    let num = 1;
    if (isDigit(math[i]!)) {
      const from = i;
      while (i < math.length && isDigit(math[i]!)) i++;
      if (i >= math.length) throw new DateMathError(`truncated date math [${math}]`);
      num = Number(math.slice(from, i));
    }
    const round = op === '/';
    if (round && num !== 1) throw new DateMathError(`rounding \`/\` can only be used on single unit types [${math}]`);
    const unit = math[i++]!;
    const n = op === '-' ? -num : num;
    switch (unit) {
      case 'y':
        t = round ? roundCalendar(t, zone, roundUp, 'year') : fromLocal(zone, addMonths(toLocal(zone, t), 12 * n));
        break;
      case 'M':
        t = round ? roundCalendar(t, zone, roundUp, 'month') : fromLocal(zone, addMonths(toLocal(zone, t), n));
        break;
      case 'w':
        t = round ? roundCalendar(t, zone, roundUp, 'week') : fromLocal(zone, toLocal(zone, t) + 7 * n * DAY_MS);
        break;
      case 'd':
        t = round ? roundCalendar(t, zone, roundUp, 'day') : fromLocal(zone, toLocal(zone, t) + n * DAY_MS);
        break;
      case 'h':
      case 'H':
        t = round ? roundClock(t, zone, roundUp, HOUR_MS) : t + n * HOUR_MS;
        break;
      case 'm':
        t = round ? roundClock(t, zone, roundUp, MINUTE_MS) : t + n * MINUTE_MS;
        break;
      case 's':
        t = round ? roundClock(t, zone, roundUp, SECOND_MS) : t + n * SECOND_MS;
        break;
      default:
        throw new DateMathError(`unit [${unit}] not supported for date math [${math}]`);
    }
    // rounding up lands on the start of the next unit: one millisecond less is the largest inclusive value
    if (round && roundUp) t -= 1;
  }
  return t;
}

function roundCalendar(t: number, zone: Zone, roundUp: boolean, unit: 'year' | 'month' | 'week' | 'day'): number {
  const local = toLocal(zone, t);
  const d = new Date(local);
  let start: number;
  let next: number;
  switch (unit) {
    case 'year':
      start = utcMs(d.getUTCFullYear(), 0, 1);
      next = addMonths(start, 12);
      break;
    case 'month':
      start = utcMs(d.getUTCFullYear(), d.getUTCMonth(), 1);
      next = addMonths(start, 1);
      break;
    case 'week': {
      const dayStart = local - mod(local, DAY_MS);
      const sinceMonday = (new Date(dayStart).getUTCDay() + 6) % 7;
      start = dayStart - sinceMonday * DAY_MS;
      next = start + 7 * DAY_MS;
      break;
    }
    default:
      start = local - mod(local, DAY_MS);
      next = start + DAY_MS;
  }
  return fromLocal(zone, roundUp ? next : start);
}

function roundClock(t: number, zone: Zone, roundUp: boolean, unitMs: number): number {
  const local = toLocal(zone, t);
  const start = fromLocal(zone, local - mod(local, unitMs));
  return roundUp ? start + unitMs : start;
}

/** Adds months on the calendar, clamping the day to the end of a shorter month (Jan 31 + 1M = Feb 28/29). */
function addMonths(local: number, months: number): number {
  const d = new Date(local);
  const total = d.getUTCMonth() + months;
  const year = d.getUTCFullYear() + Math.floor(total / 12);
  const month = mod(total, 12);
  const day = Math.min(d.getUTCDate(), daysInMonth(year, month));
  return utcMs(year, month, day) + mod(local, DAY_MS);
}

// ---- time zones ----

type Zone = { kind: 'fixed'; offsetMs: number } | { kind: 'named'; format: Intl.DateTimeFormat };

const UTC: Zone = { kind: 'fixed', offsetMs: 0 };
const FIXED_OFFSET = /^([+-])(\d{1,2})(?::?(\d{2}))?$/;
const zoneCache = new Map<string, Zone | undefined>();

function fixedOffsetMs(text: string): number | undefined {
  if (text === 'Z' || text === 'z') return 0;
  const m = FIXED_OFFSET.exec(text);
  if (!m) return undefined;
  const hours = Number(m[2]);
  const minutes = m[3] === undefined ? 0 : Number(m[3]);
  if (hours > 18 || minutes > 59) return undefined;
  return (m[1] === '-' ? -1 : 1) * (hours * HOUR_MS + minutes * MINUTE_MS);
}

/**
 * A formatter giving an instant's wall-clock parts in an IANA zone (era included, so that
 * years before 1 are told apart); throws RangeError for an unknown zone.
 */
export function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    era: 'short',
  });
}

function resolveZone(timeZone: string | undefined): Zone | undefined {
  if (timeZone === undefined || timeZone === '') return UTC;
  if (zoneCache.has(timeZone)) return zoneCache.get(timeZone);
  let zone: Zone | undefined;
  const fixed = fixedOffsetMs(timeZone);
  if (fixed !== undefined) {
    zone = { kind: 'fixed', offsetMs: fixed };
  } else if (/^(?:UTC|GMT|UT)$/i.test(timeZone)) {
    zone = UTC;
  } else {
    try {
      zone = { kind: 'named', format: wallClockFormat(timeZone) };
    } catch {
      zone = undefined;
    }
  }
  if (zoneCache.size < 1000) zoneCache.set(timeZone, zone);
  return zone;
}

/** Milliseconds to add to an instant to get the zone's wall-clock time. */
function offsetAt(zone: Zone, instant: number): number {
  if (zone.kind === 'fixed') return zone.offsetMs;
  return wallClockOffsetMs(zone.format, instant);
}

/**
 * The offset (ms to add to an instant to get wall-clock time) of the zone of a wallClockFormat()
 * formatter at an instant, to the second.
 */
export function wallClockOffsetMs(format: Intl.DateTimeFormat, instant: number): number {
  const whole = instant - mod(instant, SECOND_MS);
  const parts = format.formatToParts(new Date(whole));
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let bc = false;
  for (const p of parts) {
    switch (p.type) {
      case 'year':
        year = Number(p.value);
        break;
      case 'month':
        month = Number(p.value);
        break;
      case 'day':
        day = Number(p.value);
        break;
      case 'hour':
        hour = Number(p.value);
        break;
      case 'minute':
        minute = Number(p.value);
        break;
      case 'second':
        second = Number(p.value);
        break;
      case 'era':
        bc = p.value.startsWith('B');
        break;
      default:
        break;
    }
  }
  if (bc) year = 1 - year;
  const local = utcMs(year, month - 1, day) + hour * HOUR_MS + minute * MINUTE_MS + second * SECOND_MS;
  return local - whole;
}

function toLocal(zone: Zone, instant: number): number {
  return instant + offsetAt(zone, instant);
}

/**
 * The instant of a wall-clock time. In an overlap (clocks set back) the earlier offset wins; in
 * a gap (clocks set forward) the time moves forward by the gap, as java.time does.
 */
function fromLocal(zone: Zone, local: number): number {
  if (zone.kind === 'fixed') return local - zone.offsetMs;
  const before = offsetAt(zone, local - DAY_MS);
  const after = offsetAt(zone, local + DAY_MS);
  for (const offset of before >= after ? [before, after] : [after, before]) {
    if (offsetAt(zone, local - offset) === offset) return local - offset;
  }
  return local - before;
}

// ---- calendar helpers ----

function utcMs(year: number, month: number, day: number): number {
  // Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear does not
  const d = new Date(0);
  d.setUTCFullYear(year, month, day);
  return d.getTime();
}

function daysInMonth(year: number, month: number): number {
  return new Date(utcMs(year, month + 1, 1) - DAY_MS).getUTCDate();
}

function mod(a: number, m: number): number {
  return ((a % m) + m) % m;
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function checkRange(ms: number): number {
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_EPOCH_MS) throw new DateMathError(`date [${ms}] is out of range`);
  return ms;
}
