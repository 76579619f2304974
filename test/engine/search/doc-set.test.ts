import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  atLeast,
  clip,
  complement,
  difference,
  gallop,
  intersect,
  intersectMany,
  lowerBound,
  union,
  unionMany,
} from '../../../src/engine/search/doc-set.js';

function makeRandom(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

function randomSet(rnd: () => number, limit: number, density: number): Uint32Array {
  const out: number[] = [];
  for (let d = 0; d < limit; d++) if (rnd() < density) out.push(d);
  return Uint32Array.from(out);
}

const naive = {
  intersect: (a: Uint32Array, b: Uint32Array) => [...a].filter((x) => b.includes(x)),
  union: (a: Uint32Array, b: Uint32Array) => [...new Set([...a, ...b])].sort((x, y) => x - y),
  difference: (a: Uint32Array, b: Uint32Array) => [...a].filter((x) => !b.includes(x)),
};

// densities chosen so both the merge and the galloping paths run
const DENSITIES = [0.001, 0.01, 0.3, 0.9];

test('intersect, union and difference agree with a naive implementation', () => {
  const rnd = makeRandom(7);
  const limit = 3000;
  for (const da of DENSITIES) {
    for (const db of DENSITIES) {
      const a = randomSet(rnd, limit, da);
      const b = randomSet(rnd, limit, db);
      assert.deepEqual([...intersect(a, b)], naive.intersect(a, b), `intersect ${da} ${db}`);
      assert.deepEqual([...union(a, b)], naive.union(a, b), `union ${da} ${db}`);
      assert.deepEqual([...difference(a, b)], naive.difference(a, b), `difference ${da} ${db}`);
    }
  }
});

test('unionMany merges many lists through each of its strategies', () => {
  const rnd = makeRandom(11);
  for (const [count, density, limit] of [
    [3, 0.1, 500],
    [12, 0.001, 5000],
    [12, 0.2, 5000],
  ] as const) {
    const lists = Array.from({ length: count }, () => randomSet(rnd, limit, density));
    const expected = [...new Set(lists.flatMap((l) => [...l]))].sort((x, y) => x - y);
    assert.deepEqual([...unionMany(lists, limit)], expected);
  }
  assert.deepEqual([...unionMany([], 10)], []);
});

test('intersectMany, complement, clip', () => {
  const a = Uint32Array.from([1, 3, 5, 7, 9]);
  const b = Uint32Array.from([3, 4, 5, 9, 12]);
  const c = Uint32Array.from([0, 3, 9]);
  assert.deepEqual([...intersectMany([a, b, c])], [3, 9]);
  assert.deepEqual([...intersectMany([])], []);
  assert.deepEqual([...complement(b, 8)], [0, 1, 2, 6, 7]);
  assert.deepEqual([...complement(new Uint32Array(0), 3)], [0, 1, 2]);
  assert.deepEqual([...clip(b, 9)], [3, 4, 5]);
  assert.deepEqual([...clip(b, 100)], [3, 4, 5, 9, 12]);
});

test('atLeast keeps docs whose summed weights reach the minimum', () => {
  const lists = [Uint32Array.from([1, 2, 3]), Uint32Array.from([2, 3, 4]), Uint32Array.from([3, 4, 5])];
  assert.deepEqual([...atLeast(lists, [1, 1, 1], 2, 10)], [2, 3, 4]);
  assert.deepEqual([...atLeast(lists, [1, 1, 1], 3, 10)], [3]);
  assert.deepEqual([...atLeast(lists, [2, 1, 1], 2, 10)], [1, 2, 3, 4]);
  assert.deepEqual([...atLeast(lists, [1, 1, 1], 4, 10)], []);
});

test('lowerBound and gallop find the first doc at or above a value', () => {
  const docs = Uint32Array.from([2, 4, 4, 8, 16, 32, 64]);
  for (let v = 0; v <= 70; v++) {
    const expected = docs.findIndex((d) => d >= v);
    const want = expected < 0 ? docs.length : expected;
    assert.equal(lowerBound(docs, v), want);
    assert.equal(gallop(docs, v, 0), want);
    if (want >= 2) assert.equal(gallop(docs, v, 2), want);
  }
});
