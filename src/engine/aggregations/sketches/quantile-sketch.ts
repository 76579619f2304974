/**
 * Quantiles for `percentiles`. Up to EXACT_LIMIT values are kept as they are; past that, a
 * DDSketch-like histogram of logarithmic bins: bin i holds values in (γ^(i-1), γ^i] with
 * γ = (1 + α) / (1 - α), α = RELATIVE_ACCURACY, and answers with 2γ^i / (γ + 1), within α of any
 * value of the bin. Negative values have their own bins, zero its own count. A quantile q is the
 * linear interpolation between the values at ranks ⌊q(n-1)⌋ and ⌈q(n-1)⌉ (as Excel's
 * PERCENTILE.INC); from the bins it is within α (1%) of that, clamped to the exact min and max.
 * At most MAX_BINS bins per sign are kept: past that the lowest magnitudes share one bin.
 */
import type { Account } from '../memory.js';

export const RELATIVE_ACCURACY = 0.01;
export const EXACT_LIMIT = 256;
export const MAX_BINS = 2048;

const GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
const LOG_GAMMA = Math.log(GAMMA);

/** A sketch as JSON: its values while exact, else its bins (counts from bin `lo` on) and extremes. */
export interface QuantileSketchWire {
  count: number;
  exact?: number[];
  min?: number;
  max?: number;
  zeros?: number;
  positive?: { lo: number; counts: number[] };
  negative?: { lo: number; counts: number[] };
}

function binOf(magnitude: number): number {
  return Math.ceil(Math.log(magnitude) / LOG_GAMMA);
}

function valueOfBin(i: number): number {
  return (2 * GAMMA ** i) / (GAMMA + 1);
}

/** Counts of consecutive bins lo..hi held in `counts` from index `offset`. */
class BinStore {
  counts = new Float64Array(0);
  offset = 0;
  lo = 0;
  hi = -1;
  total = 0;

  get bytes(): number {
    return 40 + this.counts.byteLength;
  }

  add(bin: number, n: number, account: Account): void {
    if (this.counts.length === 0) {
      this.resize(bin, bin, account);
    } else if (bin >= this.offset + this.counts.length || (bin < this.offset && !this.full())) {
      this.resize(this.total > 0 ? Math.min(this.lo, bin) : bin, this.total > 0 ? Math.max(this.hi, bin) : bin, account);
    }
    // bins below the kept range were folded into its lowest bin
    const at = Math.max(bin, this.offset);
    this.counts[at - this.offset]! += n;
    if (this.total === 0) {
      this.lo = at;
      this.hi = at;
    } else {
      if (at < this.lo) this.lo = at;
      if (at > this.hi) this.hi = at;
    }
    this.total += n;
  }

  /** at its widest and unable to move down: lower bins fold into the lowest */
  private full(): boolean {
    return this.counts.length === MAX_BINS && this.hi - MAX_BINS + 1 >= this.offset;
  }

  private resize(lo: number, hi: number, account: Account): void {
    const keptLo = hi - lo + 1 > MAX_BINS ? hi - MAX_BINS + 1 : lo;
    const span = hi - keptLo + 1;
    const capacity = Math.min(MAX_BINS, Math.max(16, 2 ** Math.ceil(Math.log2(span + 8))));
    // room on both sides for the range to grow either way
    const offset = keptLo - Math.floor((capacity - span) / 2);
    account.charge(capacity * 8, 'percentiles');
    const counts = new Float64Array(capacity);
    if (this.total > 0) {
      for (let b = this.lo; b <= this.hi; b++) {
        const c = this.counts[b - this.offset]!;
        if (c !== 0) counts[Math.max(b, keptLo) - offset]! += c;
      }
      this.lo = Math.max(this.lo, keptLo);
      this.hi = Math.max(this.hi, keptLo);
    }
    account.release(this.counts.byteLength);
    this.counts = counts;
    this.offset = offset;
  }

  /** the bin holding the value of 0-based rank `rank` counting from the low end */
  binAtRank(rank: number): number {
    let seen = 0;
    for (let b = this.lo; b <= this.hi; b++) {
      seen += this.counts[b - this.offset]!;
      if (seen > rank) return b;
    }
    return this.hi;
  }
}

export class QuantileSketch {
  count = 0;
  min = Infinity;
  max = -Infinity;
  private exact: Float64Array | null = new Float64Array(4);
  private positive: BinStore | null = null;
  private negative: BinStore | null = null;
  private zeros = 0;

  get bytes(): number {
    return 64 + (this.exact?.byteLength ?? 0) + (this.positive?.bytes ?? 0) + (this.negative?.bytes ?? 0);
  }

  add(v: number, account: Account): void {
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    if (this.exact !== null) {
      if (this.count < EXACT_LIMIT) {
        if (this.count === this.exact.length) {
          const bigger = Math.min(EXACT_LIMIT, this.exact.length * 2);
          account.charge(bigger * 8, 'percentiles');
          const next = new Float64Array(bigger);
          next.set(this.exact);
          account.release(this.exact.byteLength);
          this.exact = next;
        }
        this.exact[this.count++] = v;
        return;
      }
      this.toBins(account);
    }
    this.addToBins(v, 1, account);
    this.count++;
  }

  private addToBins(v: number, n: number, account: Account): void {
    if (v > 0) (this.positive ??= new BinStore()).add(binOf(v), n, account);
    else if (v < 0) (this.negative ??= new BinStore()).add(binOf(-v), n, account);
    else this.zeros += n;
  }

  private toBins(account: Account): void {
    const values = this.exact!;
    const n = this.count;
    this.exact = null;
    for (let i = 0; i < n; i++) this.addToBins(values[i]!, 1, account);
    account.release(values.byteLength);
  }

  /** The value at quantile q in [0, 1], or null when empty. */
  quantile(q: number): number | null {
    if (this.count === 0) return null;
    const rank = q * (this.count - 1);
    const lower = Math.floor(rank);
    const upper = Math.ceil(rank);
    const frac = rank - lower;
    if (this.exact !== null) {
      const sorted = this.exact.slice(0, this.count).sort();
      return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * frac;
    }
    const a = this.valueAtRank(lower);
    const b = upper === lower ? a : this.valueAtRank(upper);
    return a + (b - a) * frac;
  }

  private valueAtRank(rank: number): number {
    if (rank <= 0) return this.min;
    if (rank >= this.count - 1) return this.max;
    let v: number;
    const negatives = this.negative?.total ?? 0;
    if (rank < negatives) {
      // negatives run from the largest magnitude up
      v = -valueOfBin(this.negative!.binAtRank(negatives - 1 - rank));
    } else if (rank < negatives + this.zeros) {
      v = 0;
    } else {
      v = valueOfBin(this.positive!.binAtRank(rank - negatives - this.zeros));
    }
    return Math.min(this.max, Math.max(this.min, v));
  }

  /** The sketch as JSON, to send it to another node. */
  toWire(): QuantileSketchWire {
    if (this.exact !== null) return { count: this.count, exact: Array.from(this.exact.subarray(0, this.count)) };
    const bins = (store: BinStore | null) => (store === null || store.total === 0 ? undefined : { lo: store.lo, counts: Array.from(store.counts.subarray(store.lo - store.offset, store.hi - store.offset + 1)) });
    return { count: this.count, min: this.min, max: this.max, zeros: this.zeros, positive: bins(this.positive), negative: bins(this.negative) };
  }

  static fromWire(wire: QuantileSketchWire, account: Account): QuantileSketch {
    const out = new QuantileSketch();
    account.charge(out.bytes, 'percentiles');
    if (wire.exact !== undefined) {
      for (const v of wire.exact) out.add(v, account);
      return out;
    }
    account.release(out.exact!.byteLength);
    out.exact = null;
    out.count = wire.count;
    out.min = wire.min!;
    out.max = wire.max!;
    out.zeros = wire.zeros ?? 0;
    for (const [from, to] of [
      [wire.positive, 'positive'],
      [wire.negative, 'negative'],
    ] as const) {
      if (from === undefined) continue;
      const store = (out[to] ??= new BinStore());
      from.counts.forEach((c, i) => {
        if (c !== 0) store.add(from.lo + i, c, account);
      });
    }
    return out;
  }

  /** A new sketch of both inputs' values; the inputs are left as they are. */
  static merge(a: QuantileSketch, b: QuantileSketch, account: Account): QuantileSketch {
    const out = new QuantileSketch();
    account.charge(out.bytes, 'percentiles');
    if (a.exact !== null && b.exact !== null && a.count + b.count <= EXACT_LIMIT) {
      for (let i = 0; i < a.count; i++) out.add(a.exact[i]!, account);
      for (let i = 0; i < b.count; i++) out.add(b.exact[i]!, account);
      return out;
    }
    account.release(out.exact!.byteLength);
    out.exact = null;
    for (const s of [a, b]) {
      out.count += s.count;
      if (s.min < out.min) out.min = s.min;
      if (s.max > out.max) out.max = s.max;
      if (s.exact !== null) {
        for (let i = 0; i < s.count; i++) out.addToBins(s.exact[i]!, 1, account);
        continue;
      }
      out.zeros += s.zeros;
      for (const [from, to] of [
        [s.positive, 'positive'],
        [s.negative, 'negative'],
      ] as const) {
        if (from === null || from.total === 0) continue;
        const store = (out[to] ??= new BinStore());
        for (let bin = from.lo; bin <= from.hi; bin++) {
          const c = from.counts[bin - from.offset]!;
          if (c !== 0) store.add(bin, c, account);
        }
      }
    }
    return out;
  }
}
