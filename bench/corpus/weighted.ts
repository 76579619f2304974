/**
 * Samplers over a fixed list of choices: explicit weights, or Zipf weights k^-s over ranks.
 * Both precompute a cumulative table and binary-search it, so a draw is O(log n).
 */
import type { Prng } from './prng.js';

export class WeightedSampler<T> {
  private readonly cdf: Float64Array;
  private readonly total: number;

  constructor(
    readonly items: readonly T[],
    weights: readonly number[],
  ) {
    if (items.length === 0 || items.length !== weights.length) throw new Error('weighted sampler needs one weight per item');
    this.cdf = new Float64Array(items.length);
    let sum = 0;
    for (let i = 0; i < weights.length; i++) {
      sum += weights[i]!;
      this.cdf[i] = sum;
    }
    this.total = sum;
  }

  sample(prng: Prng): T {
    return this.items[searchCdf(this.cdf, prng.next() * this.total)]!;
  }
}

/** Ranks 1..n drawn with probability proportional to rank^-s. */
export class ZipfSampler {
  private readonly cdf: Float64Array;
  private readonly total: number;

  constructor(
    readonly n: number,
    readonly s: number,
  ) {
    this.cdf = new Float64Array(n);
    let sum = 0;
    for (let k = 1; k <= n; k++) {
      sum += Math.pow(k, -s);
      this.cdf[k - 1] = sum;
    }
    this.total = sum;
  }

  /** a rank in [1, n] */
  sample(prng: Prng): number {
    return searchCdf(this.cdf, prng.next() * this.total) + 1;
  }

  /** the probability of drawing rank k */
  probability(k: number): number {
    return Math.pow(k, -this.s) / this.total;
  }
}

/** first index whose cumulative weight exceeds x */
function searchCdf(cdf: Float64Array, x: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cdf[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
