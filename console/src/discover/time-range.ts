/** A time range is relative to now (moves with the clock, as live tail needs) or absolute. */

export type TimeRange = { kind: 'relative'; lastMs: number; label: string } | { kind: 'absolute'; fromMs: number; toMs: number };

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
  return range.kind === 'relative' ? { fromMs: now - range.lastMs, toMs: now } : { fromMs: range.fromMs, toMs: range.toMs };
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

/** `datetime-local` input value (local time, minutes) for epoch ms, and back. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * MINUTE);
  return d.toISOString().slice(0, 19);
}

export function fromLocalInput(value: string): number | undefined {
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}
