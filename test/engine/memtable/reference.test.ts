import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memtable } from '../../../src/engine/memtable/index.js';
import type { PositionPostings } from '../../../src/engine/segment-reader.js';

// a deterministic generator so that failures reproduce
function prng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

interface Expected {
  docs: number[];
  positions: number[][];
}

test('postings and positions match a plain reference, and old views never change', () => {
  const rnd = prng(11);
  const m = new Memtable('ref');
  const ref = new Map<string, Expected>();
  const kept: Array<{ term: string; view: PositionPostings; docs: number[]; positions: number[][] }> = [];
  const docs = 6000;
  for (let d = 0; d < docs; d++) {
    const n = 1 + rnd(30);
    const tokens: string[] = [];
    for (let p = 0; p < n; p++) {
      // a few very common terms, many medium ones and a long tail of rare ones
      const kind = rnd(10);
      tokens.push(kind < 4 ? `c${rnd(5)}` : kind < 8 ? `m${rnd(400)}` : `r${rnd(200000)}`);
    }
    m.add({ id: BigInt(d), lid: d + 1, ts: d, source: '{}', fields: [{ name: '_line', type: 'text', values: [tokens.join(' ')] }] });
    tokens.forEach((t, p) => {
      let e = ref.get(t);
      if (e === undefined) ref.set(t, (e = { docs: [], positions: [] }));
      if (e.docs[e.docs.length - 1] !== d) {
        e.docs.push(d);
        e.positions.push([]);
      }
      e.positions[e.positions.length - 1]!.push(p);
    });
    if (d % 97 === 0) {
      const terms = [...ref.keys()];
      const term = terms[rnd(terms.length)]!;
      const e = ref.get(term)!;
      kept.push({ term, view: m.positions('_line', term)!, docs: [...e.docs], positions: e.positions.map((p) => [...p]) });
    }
  }
  const check = (view: PositionPostings, docs: number[], positions: number[][], term: string): void => {
    assert.deepEqual([...view.docs], docs, term);
    assert.equal(view.offsets.length, docs.length + 1, term);
    assert.equal(view.offsets[0], 0, term);
    for (let i = 0; i < docs.length; i++) {
      assert.deepEqual([...view.positions.subarray(view.offsets[i]!, view.offsets[i + 1]!)], positions[i], term);
    }
    assert.equal(view.positions.length, view.offsets[docs.length], term);
  };
  for (const [term, e] of ref) {
    check(m.positions('_line', term)!, e.docs, e.positions, term);
    assert.equal(m.docFreq('_line', term), e.docs.length);
    assert.deepEqual([...m.postings('_line', term)!], e.docs);
  }
  for (const k of kept) check(k.view, k.docs, k.positions, `kept ${k.term}`);
  assert.deepEqual([...m.terms('_line')], [...ref.keys()].sort());
});

test('keyword postings, ordinals and exists match a plain reference', () => {
  const rnd = prng(5);
  const m = new Memtable('kw');
  const postings = new Map<string, number[]>();
  const first: Array<string | undefined> = [];
  const exists: number[] = [];
  for (let d = 0; d < 5000; d++) {
    const values: string[] = [];
    const n = rnd(4);
    for (let i = 0; i < n; i++) values.push(rnd(3) === 0 ? `rare-${rnd(100000)}` : `v${rnd(50)}`);
    m.add({ id: BigInt(d), lid: d + 1, ts: d, source: '{}', fields: [{ name: 'k', type: 'keyword', values }] });
    first.push(values[0]);
    if (values.length > 0) exists.push(d);
    for (const v of values) {
      const list = postings.get(v) ?? [];
      if (list[list.length - 1] !== d) list.push(d);
      postings.set(v, list);
    }
    if (d === 2500) {
      const o = m.ordinals('k')!;
      assert.deepEqual(
        [...o.ords].map((r) => (r < 0 ? undefined : o.terms[r])),
        first,
      );
    }
  }
  for (const [v, list] of postings) assert.deepEqual([...m.postings('k', v)!], list);
  const o = m.ordinals('k')!;
  assert.deepEqual(o.terms, [...postings.keys()].sort());
  assert.deepEqual(
    [...o.ords].map((r) => (r < 0 ? undefined : o.terms[r])),
    first,
  );
  assert.deepEqual([...m.exists('k')], exists);
});

test('terms sort by UTF-16 code units', () => {
  const m = new Memtable('u');
  m.add({ id: 1n, lid: 1, ts: 1, source: '{}', fields: [{ name: 'k', type: 'keyword', values: ['z', 'é', 'Z', '😀', '\uffff', 'a b', 'a'] }] });
  assert.deepEqual([...m.terms('k')], ['Z', 'a', 'a b', 'z', 'é', '😀', '\uffff']);
  assert.deepEqual([...m.terms('k', 'b')], ['z', 'é', '😀', '\uffff']);
  assert.deepEqual([...m.terms('k', '\ud83d')], ['😀', '\uffff']);
});
