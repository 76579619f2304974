/**
 * Dates as `key_as_string`, `value_as_string` and range keys print them: Elasticsearch's named
 * formats (`strict_date_optional_time`, `epoch_millis`, `date_time`, ...) and java.time patterns
 * built from y u M d D H h k m s S a E Z X x and quoted literals. With `a||b` the first prints.
 */
import { BadRequestError } from '../../common/index.js';
import { TimeZone } from '../../engine/aggregations/index.js';

export interface DateFormatter {
  format(epochMs: number, zone: TimeZone): string;
}

const NAMED: Record<string, string> = {
  strict_date_optional_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  date_optional_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  strict_date_optional_time_nanos: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  strict_date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  strict_date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssXXX",
  date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssXXX",
  strict_date: 'yyyy-MM-dd',
  date: 'yyyy-MM-dd',
  strict_date_hour: "yyyy-MM-dd'T'HH",
  date_hour: "yyyy-MM-dd'T'HH",
  strict_date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  strict_date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  strict_date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  strict_date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  basic_date: 'yyyyMMdd',
  basic_date_time: "yyyyMMdd'T'HHmmss.SSSXX",
  basic_date_time_no_millis: "yyyyMMdd'T'HHmmssXX",
  basic_time: 'HHmmss.SSSXX',
  basic_time_no_millis: 'HHmmssXX',
  strict_hour_minute_second: 'HH:mm:ss',
  hour_minute_second: 'HH:mm:ss',
  strict_hour_minute: 'HH:mm',
  hour_minute: 'HH:mm',
  strict_hour: 'HH',
  hour: 'HH',
  strict_time: 'HH:mm:ss.SSSXXX',
  time: 'HH:mm:ss.SSSXXX',
  strict_time_no_millis: 'HH:mm:ssXXX',
  time_no_millis: 'HH:mm:ssXXX',
  strict_year_month_day: 'yyyy-MM-dd',
  year_month_day: 'yyyy-MM-dd',
  strict_year_month: 'yyyy-MM',
  year_month: 'yyyy-MM',
  strict_year: 'yyyy',
  year: 'yyyy',
};

export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Part = string | ((d: Date, offsetMs: number) => string);

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}

function offsetText(offsetMs: number, colon: boolean, zForZero: boolean, minutesOptional: boolean): string {
  if (offsetMs === 0 && zForZero) return 'Z';
  const sign = offsetMs < 0 ? '-' : '+';
  const total = Math.round(Math.abs(offsetMs) / 60_000);
  const h = pad(Math.floor(total / 60), 2);
  const m = pad(total % 60, 2);
  if (minutesOptional && total % 60 === 0) return `${sign}${h}`;
  return colon ? `${sign}${h}:${m}` : `${sign}${h}${m}`;
}

function field(letter: string, count: number, pattern: string): Part {
  switch (letter) {
    case 'y':
    case 'u':
      return count === 2 ? (d) => pad(d.getUTCFullYear() % 100, 2) : (d) => pad(d.getUTCFullYear(), count);
    case 'M':
    case 'L':
      if (count >= 4) return (d) => MONTHS[d.getUTCMonth()]!;
      if (count === 3) return (d) => MONTHS[d.getUTCMonth()]!.slice(0, 3);
      return (d) => pad(d.getUTCMonth() + 1, count);
    case 'd':
      return (d) => pad(d.getUTCDate(), count);
    case 'D':
      return (d) => pad(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, count);
    case 'H':
      return (d) => pad(d.getUTCHours(), count);
    case 'k':
      return (d) => pad(d.getUTCHours() === 0 ? 24 : d.getUTCHours(), count);
    case 'h':
      return (d) => pad(d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12, count);
    case 'm':
      return (d) => pad(d.getUTCMinutes(), count);
    case 's':
      return (d) => pad(d.getUTCSeconds(), count);
    case 'S':
      return (d) => pad(d.getUTCMilliseconds(), 3).padEnd(count, '0').slice(0, count);
    case 'a':
      return (d) => (d.getUTCHours() < 12 ? 'AM' : 'PM');
    case 'E':
      return count >= 4 ? (d) => DAYS[d.getUTCDay()]! : (d) => DAYS[d.getUTCDay()]!.slice(0, 3);
    case 'Z':
      if (count <= 3) return (_d, o) => offsetText(o, false, false, false);
      if (count === 4) return (_d, o) => (o === 0 ? 'GMT' : `GMT${offsetText(o, true, false, false)}`);
      return (_d, o) => offsetText(o, true, true, false);
    case 'X':
      return (_d, o) => offsetText(o, count >= 3, true, count === 1);
    case 'x':
      return (_d, o) => offsetText(o, count >= 3, false, count === 1);
    default:
      throw new BadRequestError(`Invalid format: [${pattern}]: unknown pattern letter: ${letter}`);
  }
}

function compile(pattern: string): Part[] {
  const parts: Part[] = [];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end === i + 1) {
        parts.push("'");
        i += 2;
        continue;
      }
      if (end < 0) throw new BadRequestError(`Invalid format: [${pattern}]: unterminated quote`);
      parts.push(pattern.slice(i + 1, end));
      i = end + 1;
    } else if (c === '[' || c === ']') {
      i++;
    } else if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (j < pattern.length && pattern[j] === c) j++;
      parts.push(field(c, j - i, pattern));
      i = j;
    } else {
      parts.push(c);
      i++;
    }
  }
  return parts;
}

const cache = new Map<string, DateFormatter>();

/** The formatter of an Elasticsearch date `format`; a 400 for patterns it cannot print. */
export function dateFormatter(format: string = DEFAULT_DATE_FORMAT): DateFormatter {
  const hit = cache.get(format);
  if (hit !== undefined) return hit;
  const first = format.split('||')[0]!.trim();
  let formatter: DateFormatter;
  if (first === 'epoch_millis') formatter = { format: (ms) => String(ms) };
  else if (first === 'epoch_second') formatter = { format: (ms) => String(Math.floor(ms / 1000)) };
  else {
    const parts = compile(NAMED[first] ?? first);
    formatter = {
      format(ms, zone) {
        const offset = zone.offsetAt(ms);
        const d = new Date(ms + offset);
        let out = '';
        for (const p of parts) out += typeof p === 'string' ? p : p(d, offset);
        return out;
      },
    };
  }
  if (cache.size < 256) cache.set(format, formatter);
  return formatter;
}
