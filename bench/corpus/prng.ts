/**
 * Seeded pseudo-random numbers (mulberry32): 32 bits of state, fast, and the same sequence on
 * every platform, so a seed names one corpus byte for byte.
 */

/** Mixes a seed and a stream label into an independent 32-bit seed (splitmix32 finalizer). */
export function deriveSeed(seed: number, stream: number): number {
  let z = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  nextUint32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** uniform in [0, 1) */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** uniform integer in [0, n) */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** uniform integer in [lo, hi] */
  range(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** standard normal (Box-Muller; one value per call keeps the stream simple to reason about) */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}
