/** Elasticsearch time values (`30s`, `500ms`, `1m`, `2h`, `1d`) read as milliseconds. */
import { BadRequestError } from '../../common/index.js';

const UNIT_MS: Readonly<Record<string, number>> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a time value; `requireUnit` follows Elasticsearch, which refuses a bare number for
 * settings like `scroll` (only `0` and `-1` may go without a unit there).
 */
export function parseTimeValue(value: unknown, setting: string, requireUnit: boolean): number {
  const text = String(value).trim();
  if (typeof value === 'number' && !requireUnit) return value;
  const m = /^(\d+(?:\.\d+)?)\s*(nanos|micros|ms|s|m|h|d)?$/.exec(text);
  if (m === null || (m[2] === undefined && requireUnit && text !== '0')) {
    throw new BadRequestError(
      `failed to parse setting [${setting}] with value [${text}] as a time value: unit is missing or unrecognized`,
      'parse_exception',
    );
  }
  return Number(m[1]) * UNIT_MS[m[2] ?? 'ms']!;
}

/** Renders milliseconds the way Elasticsearch prints a time value in messages (`1d`, `90s`). */
export function formatTimeValue(ms: number): string {
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) {
    if (ms >= size) return `${Number((ms / size).toFixed(1))}${unit}`;
  }
  return `${ms}ms`;
}
