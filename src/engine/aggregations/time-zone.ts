/**
 * Time zones for date histograms: a fixed offset (`+01:00`, `Z`, `UTC`) or an IANA name, with
 * the offset at an instant memoized per 15-minute slot (zone transitions of the modern tz
 * database fall on quarter hours; historical local-mean-time offsets may be off by seconds).
 */
import { wallClockFormat, wallClockOffsetMs } from '../../common/date-math.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const SLOT_MS = 15 * MINUTE_MS;
const MEMO_LIMIT = 100_000;

const FIXED = /^([+-])(\d{1,2})(?::?(\d{2}))?$/;
const zones = new Map<string, TimeZone | null>();

export class TimeZone {
  private readonly memo = new Map<number, number>();

  private constructor(
    readonly name: string,
    /** the offset when it never changes, else null */
    readonly fixedOffsetMs: number | null,
    private readonly format: Intl.DateTimeFormat | null,
  ) {}

  /** The zone, or undefined for a name that is neither an offset nor a known IANA zone. */
  static resolve(name: string): TimeZone | undefined {
    const cached = zones.get(name);
    if (cached !== undefined) return cached ?? undefined;
    let zone: TimeZone | null = null;
    const trimmed = name.trim();
    const m = FIXED.exec(trimmed);
    if (trimmed === '' || trimmed === 'Z' || trimmed === 'z' || /^(?:UTC|GMT|UT|Etc\/UTC|Etc\/GMT)$/i.test(trimmed)) {
      zone = new TimeZone(name, 0, null);
    } else if (m) {
      const hours = Number(m[2]);
      const minutes = m[3] === undefined ? 0 : Number(m[3]);
      if (hours <= 18 && minutes <= 59) zone = new TimeZone(name, (m[1] === '-' ? -1 : 1) * (hours * HOUR_MS + minutes * MINUTE_MS), null);
    } else {
      try {
        const format = wallClockFormat(trimmed);
        zone = new TimeZone(name, null, format);
      } catch {
        zone = null;
      }
    }
    if (zones.size < 1000) zones.set(name, zone);
    return zone ?? undefined;
  }

  static readonly UTC = TimeZone.resolve('UTC')!;

  /** Milliseconds to add to an instant to get this zone's wall-clock time. */
  offsetAt(instant: number): number {
    if (this.fixedOffsetMs !== null) return this.fixedOffsetMs;
    const slot = Math.floor(instant / SLOT_MS);
    const hit = this.memo.get(slot);
    if (hit !== undefined) return hit;
    const offset = this.computeOffset(slot * SLOT_MS);
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(slot, offset);
    return offset;
  }

  private computeOffset(instant: number): number {
    return wallClockOffsetMs(this.format!, instant);
  }

  toLocal(instant: number): number {
    return instant + this.offsetAt(instant);
  }

  /**
   * The instant of a wall-clock time: in an overlap (clocks set back) the earlier instant, in a
   * gap (clocks set forward) the time moved forward by the gap, as java.time does.
   */
  fromLocal(local: number): number {
    if (this.fixedOffsetMs !== null) return local - this.fixedOffsetMs;
    const before = this.offsetAt(local - DAY_MS);
    const after = this.offsetAt(local + DAY_MS);
    for (const offset of before >= after ? [before, after] : [after, before]) {
      if (this.offsetAt(local - offset) === offset) return local - offset;
    }
    return local - before;
  }
}
