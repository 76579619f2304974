import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HyperLogLog, precisionFor } from '../../../src/engine/aggregations/sketches/hyperloglog.js';
import { hashNumber, hashString } from '../../../src/engine/aggregations/sketches/hash.js';
import { EXACT_LIMIT, QuantileSketch, RELATIVE_ACCURACY } from '../../../src/engine/aggregations/sketches/quantile-sketch.js';
import type { Account } from '../../../src/engine/aggregations/memory.js';

/** An account that only adds up. */
function counter(): Account & { net: number } {
  return {
    net: 0,
    charge(bytes: number) {
      this.net += bytes;
    },
    release(bytes: number) {
      this.net -= bytes;
    },
  };
}

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function exactQuantile(sorted: Float64Array, q: number): number {
  const rank = q * (sorted.length - 1);
  const lo = Math.floor(rank);
  return sorted[lo]! + (sorted[Math.ceil(rank)]! - sorted[lo]!) * (rank - lo);
}

describe('cardinality sketch', () => {
  it('chooses the precision from the threshold as Elasticsearch does', () => {
    assert.equal(precisionFor(3000), 14);
    assert.equal(precisionFor(100), 10);
    assert.equal(precisionFor(40_000), 18);
    assert.equal(precisionFor(0), 4);
  });

  it('is exact up to the threshold', () => {
    const hll = new HyperLogLog(precisionFor(3000), 3000);
    const account = counter();
    for (let i = 0; i < 2000; i++) for (let r = 0; r < 3; r++) hll.add(hashString(`user-${i}`), account);
    assert.equal(hll.estimate(), 2000);
    assert.equal(account.net, hll.bytes - 48 - 32, 'growth of the hash set was charged');
  });

  it('stays within three standard errors (3 x 1.04 / sqrt(2^p)) above it, and merges', () => {
    const p = precisionFor(3000);
    const tolerance = (3 * 1.04) / Math.sqrt(2 ** p);
    const a = new HyperLogLog(p, 3000);
    const b = new HyperLogLog(p, 3000);
    const account = counter();
    for (let i = 0; i < 60_000; i++) a.add(hashString(`v${i}`), account);
    for (let i = 40_000; i < 100_000; i++) b.add(hashNumber(i) === 0 ? 1 : hashString(`v${i}`), account);
    assert.ok(Math.abs(a.estimate() - 60_000) / 60_000 < tolerance, `a: ${a.estimate()}`);
    const union = HyperLogLog.merge(a, b, account);
    assert.ok(Math.abs(union.estimate() - 100_000) / 100_000 < tolerance, `union: ${union.estimate()}`);
    assert.ok(Math.abs(a.estimate() - 60_000) / 60_000 < tolerance, 'merging left its inputs alone');
  });

  it('merges exact sets exactly', () => {
    const a = new HyperLogLog(14, 3000);
    const b = new HyperLogLog(14, 3000);
    const account = counter();
    for (let i = 0; i < 1000; i++) a.add(hashNumber(i), account);
    for (let i = 500; i < 1500; i++) b.add(hashNumber(i), account);
    assert.equal(HyperLogLog.merge(a, b, account).estimate(), 1500);
  });
});

describe('quantile sketch', () => {
  it(`is exact up to ${EXACT_LIMIT} values`, () => {
    const s = new QuantileSketch();
    const account = counter();
    for (const v of [5, 1, 4, 2, 3]) s.add(v, account);
    assert.equal(s.quantile(0.5), 3);
    assert.equal(s.quantile(0.25), 2);
    assert.equal(s.quantile(0.1), 1.4);
    assert.equal(s.quantile(1), 5);
    assert.equal(new QuantileSketch().quantile(0.5), null);
  });

  it(`is within ${RELATIVE_ACCURACY * 100}% of the exact quantile on 100k skewed values`, () => {
    const next = random(7);
    const s = new QuantileSketch();
    const account = counter();
    const values = new Float64Array(100_000);
    for (let i = 0; i < values.length; i++) {
      // latencies: mostly small, a long tail
      values[i] = Math.exp(next() * 8) * (next() < 0.01 ? 100 : 1);
      s.add(values[i]!, account);
    }
    values.sort();
    for (const q of [0, 0.01, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1]) {
      const exact = exactQuantile(values, q);
      const got = s.quantile(q)!;
      assert.ok(Math.abs(got - exact) <= RELATIVE_ACCURACY * exact + 1e-9, `q=${q}: ${got} vs ${exact}`);
    }
    assert.ok(s.bytes < 64 * 1024, `bins stay small: ${s.bytes}`);
    assert.ok(Math.abs(account.net - (s.bytes - 64)) < 256, `every growth was charged: ${account.net} of ${s.bytes}`);
  });

  it('handles negatives and zeros, and merges', () => {
    const next = random(11);
    const a = new QuantileSketch();
    const b = new QuantileSketch();
    const account = counter();
    const all: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const v = Math.round((next() - 0.4) * 2000);
      all.push(v);
      (i % 2 === 0 ? a : b).add(v, account);
    }
    const merged = QuantileSketch.merge(a, b, account);
    const sorted = Float64Array.from(all).sort();
    for (const q of [0, 0.05, 0.3, 0.5, 0.8, 1]) {
      const exact = exactQuantile(sorted, q);
      const got = merged.quantile(q)!;
      assert.ok(Math.abs(got - exact) <= RELATIVE_ACCURACY * Math.abs(exact) + 1e-9, `q=${q}: ${got} vs ${exact}`);
    }
  });
});
