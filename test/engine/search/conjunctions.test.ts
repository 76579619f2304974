/**
 * Conjunctions, negations and phrases over the in-memory skip data (bitsets of dense decoded
 * lists, the two-term phrase walk), on segment files of every format, a merge and a memtable,
 * against a plain evaluation of the same postings with sets.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { IndexedDocument } from '../../../src/engine/document/indexed-document.js';
import { Memtable } from '../../../src/engine/memtable/index.js';
import type { PositionPostings, SegmentReader } from '../../../src/engine/segment-reader.js';
import { docBits, mergeSegments, openSegment, writeSegment, type SegmentFileReader } from '../../../src/engine/segment/index.js';
import { docBitsBytes } from '../../../src/engine/segment/doc-bits.js';
import { matchSegment } from '../../../src/engine/search/index.js';
import type { Query } from '../../../src/query/index.js';
import { awkwardDocs } from '../segment/awkward-sources.js';
import { generateLogs } from '../segment/log-corpus.js';
import { repoRoot } from '../../support/repo-root.js';

const FIXTURES = path.join(repoRoot(), 'test/engine/segment/fixtures/');

function memtableOf(docs: readonly IndexedDocument[], id: string): Memtable {
  const m = new Memtable(id);
  for (const d of docs) m.add(d);
  return m;
}

const word = (w: string): Query => ({ kind: 'match', field: '_line', text: w, operator: 'or' });
const and = (a: string, b: string): Query => ({ kind: 'bool', must: [word(a)], filter: [word(b)], should: [], mustNot: [] });
const andNot = (a: string, b: string): Query => ({ kind: 'bool', must: [word(a)], filter: [], should: [], mustNot: [word(b)] });
const phrase = (a: string, b: string): Query => ({ kind: 'phrase', field: '_line', text: `${a} ${b}`, slop: 0 });

/** Terms of `_line` made of word characters only (so that they analyze to themselves), by document frequency, most frequent first. */
function termsByFrequency(r: SegmentReader): string[] {
  const terms = [...r.terms('_line')].filter((t) => /^[a-z]+$/.test(t));
  return terms.sort((a, b) => r.docFreq('_line', b) - r.docFreq('_line', a) || (a < b ? -1 : 1));
}

function plainAnd(r: SegmentReader, a: string, b: string, negate = false): number[] {
  const right = new Set(r.postings('_line', b) ?? []);
  return [...(r.postings('_line', a) ?? [])].filter((d) => right.has(d) !== negate);
}

function plainPhrase(r: SegmentReader, a: string, b: string): number[] {
  const pa = r.positions('_line', a);
  const pb = r.positions('_line', b);
  if (pa === null || pb === null) return [];
  const at = (p: PositionPostings, i: number) => [...p.positions.subarray(p.offsets[i], p.offsets[i + 1])];
  const indexInB = new Map([...pb.docs].map((d, i) => [d, i]));
  const out: number[] = [];
  pa.docs.forEach((d, i) => {
    const j = indexInB.get(d);
    if (j === undefined) return;
    const next = new Set(at(pb, j));
    if (at(pa, i).some((p) => next.has(p + 1))) out.push(d);
  });
  return out;
}

function search(r: SegmentReader, q: Query): number[] {
  return [...matchSegment({ index: 'i', segment: r }, q)];
}

describe('conjunctions and phrases over skip data', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-conjunctions-'));
  /** name, reader, whether it is a segment file (whose dense lists get bitsets) */
  const readers: Array<[string, SegmentReader, boolean]> = [];
  const files: SegmentFileReader[] = [];

  before(async () => {
    const open = (file: string) => {
      const r = openSegment(file);
      files.push(r);
      return r;
    };
    // every fixture: files written by the writers of earlier versions (see segment-roundtrip.test.ts)
    const fixtures = fs.readdirSync(FIXTURES).filter((f) => /^format-v\d+\.seg$/.test(f)).sort();
    assert.ok(fixtures.length >= 2);
    for (const f of fixtures) readers.push([f, open(path.join(FIXTURES, f)), true]);
    const first = memtableOf([...awkwardDocs(), ...generateLogs(6_000, { seed: 5, rich: true, startLid: 100 })], 'a');
    const second = memtableOf(generateLogs(4_000, { seed: 6, startLid: 10_000, startId: 7_200_000_000_000_000_000n }), 'b');
    await writeSegment(first, path.join(dir, 'a.seg'));
    await writeSegment(second, path.join(dir, 'b.seg'));
    const a = open(path.join(dir, 'a.seg'));
    const b = open(path.join(dir, 'b.seg'));
    readers.push(['current version', a, true]);
    await writeSegment(mergeSegments('merged', [a, b]), path.join(dir, 'merged.seg'));
    readers.push(['merged', open(path.join(dir, 'merged.seg')), true]);
    readers.push(['memtable', first, false]);
  });
  after(() => {
    for (const f of files) f.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers AND, AND NOT and two-word phrases as a plain evaluation does', () => {
    let probed = 0;
    for (const [name, r, file] of readers) {
      const terms = termsByFrequency(r);
      assert.ok(terms.length > 40, `${name}: enough words`);
      const common = terms.slice(0, 8);
      const middle = terms.slice(Math.floor(terms.length / 8), Math.floor(terms.length / 8) + 4);
      const rare = terms.slice(-4);
      if (file && docBitsBytes(r.postings('_line', common[0]!)!, r.numDocs) > 0) {
        probed++;
        // the files decode common words with a bitset: the probing path is the one under test
        assert.ok(docBits(r.postings('_line', common[0]!)!) !== undefined, `${name}: a bitset for ${common[0]}`);
        assert.ok(docBits(r.positions('_line', common[0]!)!.docs) !== undefined, `${name}: a bitset with the positions of ${common[0]}`);
      } else {
        assert.equal(docBits(r.postings('_line', common[0]!)!), undefined, `${name}: no bitset`);
      }
      let phraseHits = 0;
      for (const x of [...common, ...middle, ...rare]) {
        for (const y of common) {
          if (x === y) continue;
          assert.deepEqual(search(r, and(x, y)), plainAnd(r, x, y), `${name}: ${x} AND ${y}`);
          assert.deepEqual(search(r, and(y, x)), plainAnd(r, x, y), `${name}: ${y} AND ${x}`);
          assert.deepEqual(search(r, andNot(x, y)), plainAnd(r, x, y, true), `${name}: ${x} AND NOT ${y}`);
          const expected = plainPhrase(r, x, y);
          phraseHits += expected.length;
          assert.deepEqual(search(r, phrase(x, y)), expected, `${name}: "${x} ${y}"`);
          assert.deepEqual(search(r, phrase(y, x)), plainPhrase(r, y, x), `${name}: "${y} ${x}"`);
        }
        assert.deepEqual(search(r, phrase(x, x)), plainPhrase(r, x, x), `${name}: "${x} ${x}"`);
      }
      assert.ok(phraseHits > 0, `${name}: some phrases occur`);
    }
    assert.ok(probed >= 3, 'files of several versions and a merge with bitsets');
  });

  it('keeps answers right below a doc limit, where lists are cut', () => {
    for (const [name, r] of readers) {
      const [x, y] = termsByFrequency(r);
      const limit = Math.floor(r.numDocs / 2);
      const cut = (docs: number[]) => docs.filter((d) => d < limit);
      const target = { index: 'i', segment: r, docLimit: limit };
      assert.deepEqual([...matchSegment(target, and(x!, y!))], cut(plainAnd(r, x!, y!)), `${name}: AND`);
      assert.deepEqual([...matchSegment(target, phrase(x!, y!))], cut(plainPhrase(r, x!, y!)), `${name}: phrase`);
    }
  });
});
