/**
 * Elasticsearch units in URL parameters and text output: time values (`30s`, `100ms`) and byte
 * sizes printed the way `ByteSizeValue` prints them (`208b`, `4.5kb`: one decimal, truncated).
 */
import { BadRequestError } from '../../common/index.js';

const TIME_UNIT_MS: Readonly<Record<string, number>> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A time value in milliseconds; `-1` means no limit (Infinity). */
export function parseTimeParam(value: string, name: string): number {
  const text = value.trim();
  if (text === '-1') return Infinity;
  const m = /^(\d+(?:\.\d+)?)(nanos|micros|ms|s|m|h|d)$/.exec(text);
  if (m === null && text !== '0') {
    throw new BadRequestError(`failed to parse setting [${name}] with value [${text}] as a time value: unit is missing or unrecognized`, 'parse_exception');
  }
  return m === null ? 0 : Number(m[1]) * TIME_UNIT_MS[m[2]!]!;
}

const BYTE_UNITS: ReadonlyArray<readonly [string, number]> = [
  ['pb', 1024 ** 5],
  ['tb', 1024 ** 4],
  ['gb', 1024 ** 3],
  ['mb', 1024 ** 2],
  ['kb', 1024],
];

/** `1536` → `1.5kb`: the largest unit the size reaches, one decimal kept without rounding. */
export function formatBytesHuman(bytes: number): string {
  for (const [unit, size] of BYTE_UNITS) {
    if (bytes >= size) return oneDecimal(bytes / size) + unit;
  }
  return `${bytes}b`;
}

function oneDecimal(value: number): string {
  const tenths = Math.floor(value * 10);
  return tenths % 10 === 0 ? String(tenths / 10) : (tenths / 10).toFixed(1);
}

const FIXED_BYTE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  k: 1024,
  kb: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  p: 1024 ** 5,
  pb: 1024 ** 5,
};

/** A formatter for `?bytes=`: whole units (rounded down) when given, human sizes otherwise. */
export function bytesFormatter(unit: string | undefined): (bytes: number) => string {
  if (unit === undefined || unit === '') return formatBytesHuman;
  const size = FIXED_BYTE_UNITS[unit.toLowerCase()];
  if (size === undefined) throw new BadRequestError(`failed to parse [bytes] with value [${unit}]: unknown unit`, 'illegal_argument_exception');
  return (bytes) => String(Math.floor(bytes / size));
}
