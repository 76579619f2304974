/**
 * A time range is relative to now (moves with the clock, as live tail needs), absolute, or two
 * bounds written in Elasticsearch date math (`now-15m`, `now/d`, `2024-03-01T10:00`), resolved
 * by the service's own date-math code in the browser's time zone each time it is searched.
 */
import { parseDateMath } from '../../../src/common/date-math.js';

export type TimeRange =
  | { kind: 'relative'; lastMs: number; label: string }
  | { kind: 'absolute'; fromMs: number; toMs: number }
  | { kind: 'math'; from: string; to: string };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const QUICK_RANGES: Array<{ label: string; lastMs: number }> = [
  { label: 'Last 15 minutes', lastMs: 15 * MINUTE },
  { label: 'Last hour', lastMs: HOUR },
  { label: 'Last 4 hours', lastMs: 4 * HOUR },
  { label: 'Last 24 hours', lastMs: DAY },
  { label: 'Last 7 days', lastMs: 7 * DAY },
  { label: 'Last 30 days', lastMs: 30 * DAY },
  { label: 'Last year', lastMs: 365 * DAY },
];

export const DEFAULT_RANGE: TimeRange = { kind: 'relative', lastMs: DAY, label: 'Last 24 hours' };

/** The range's bounds in epoch ms at `now`. */
export function resolveRange(range: TimeRange, now = Date.now()): { fromMs: number; toMs: number } {
  switch (range.kind) {
    case 'relative':
      return { fromMs: now - range.lastMs, toMs: now };
    case 'absolute':
      return { fromMs: range.fromMs, toMs: range.toMs };
    case 'math':
      return { fromMs: resolveBound(range.from, false, now), toMs: resolveBound(range.to, true, now) };
  }
}

/** Whether the range moves with the clock, so that a new line can fall in it. */
export function followsClock(range: TimeRange): boolean {
  return range.kind === 'relative' || (range.kind === 'math' && range.to.trim().startsWith('now'));
}

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * One bound in date math, as a `range` query reads it: the upper bound rounds up (`now/d` is the
 * end of today), the lower one down. Throws the service's error for a bad one.
 */
export function resolveBound(text: string, upper: boolean, now = Date.now()): number {
  return parseDateMath(text, { nowMs: now, roundUp: upper, timeZone: timeZone() });
}

/** Why `text` is not a date-math bound, or undefined when it is one. */
export function boundProblem(text: string): string | undefined {
  if (text.trim() === '') return 'give a date, or date math such as now-15m';
  try {
    resolveBound(text, false);
    return undefined;
  } catch (err) {
    const cause = (err as { details?: { caused_by?: { reason?: string } } }).details?.caused_by?.reason;
    return cause === undefined ? String((err as Error).message) : `${(err as Error).message}: ${cause}`;
  }
}

/** The range as two date-math bounds, for the picker's fields. */
export function rangeBounds(range: TimeRange): { from: string; to: string } {
  switch (range.kind) {
    case 'relative':
      return { from: `now-${Math.round(range.lastMs / MINUTE)}m`, to: 'now' };
    case 'absolute':
      return { from: toLocalInput(range.fromMs), to: toLocalInput(range.toMs) };
    case 'math':
      return { from: range.from, to: range.to };
  }
}

/**
 * A histogram interval giving about `buckets` bars over the span, rounded to a step a person
 * reads easily (and that `fixed_interval` accepts).
 */
const STEPS: Array<[ms: number, text: string]> = [
  [1000, '1s'], [5000, '5s'], [10_000, '10s'], [30_000, '30s'],
  [MINUTE, '1m'], [5 * MINUTE, '5m'], [10 * MINUTE, '10m'], [30 * MINUTE, '30m'],
  [HOUR, '1h'], [3 * HOUR, '3h'], [6 * HOUR, '6h'], [12 * HOUR, '12h'],
  [DAY, '1d'], [7 * DAY, '7d'], [30 * DAY, '30d'],
];

export function histogramInterval(spanMs: number, buckets = 60): { ms: number; text: string } {
  const wanted = spanMs / buckets;
  const step = STEPS.find(([ms]) => ms >= wanted) ?? STEPS[STEPS.length - 1]!;
  return { ms: step[0], text: step[1] };
}

/** An ISO 8601 date without zone (local time, to the millisecond) for epoch ms. */
function toLocalInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * MINUTE);
  return d.toISOString().slice(0, 23);
}
