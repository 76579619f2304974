/**
 * The read-side indexes of segment files: the points index behind numeric ranges, the column
 * blocks behind top-k on a column, and the decoded postings a reader keeps. Each answer is
 * checked against a brute-force reading of the same documents, and each test also checks that
 * the index is the one doing the work.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Query } from '../../../src/query/index.js';
import type { SegmentReader } from '../../../src/engine/segment-reader.js';
import { openSegment, writeSegment, type SegmentFileReader } from '../../../src/engine/segment/index.js';
import { executeSearch, matchUpperBound, postingsWork, type SearchTarget } from '../../../src/engine/search/index.js';
import { Deadline } from '../../../src/engine/search/deadline.js';
import { planQuery } from '../../../src/engine/search/plan.js';
import { buildPointsIndex } from '../../../src/engine/segment/points-index.js';
import { kw, long, dbl, request, segment, text, type DocSpec } from './corpus.js';

const DOCS = 20_000;
let dir: string;
let file: SegmentFileReader;
const specs: DocSpec[] = [];

/** deterministic pseudo-random numbers (mulberry32) */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-read-indexes-'));
  const rnd = prng(7);
  for (let i = 0; i < DOCS; i++) {
    // time rises with jumps back, as when concurrent bulk requests interleave
    const ts = 1_700_000_000_000 + i * 10 - (i % 500 < 250 ? 2600 : 0) + Math.floor(rnd() * 5);
    const fields = [text('_line', `line ${i % 3 === 0 ? 'alpha' : 'beta'} ${i % 7 === 0 ? 'gamma' : ''}`), kw('host', `h${i % 4}`)];
    // status on most docs (few distinct values), size on some (many), ratio with decimals and -0
    if (i % 10 !== 0) fields.push(long('status', [200, 200, 200, 301, 404, 500, 503][Math.floor(rnd() * 7)]!));
    if (i % 3 !== 0) fields.push(long('size', Math.floor(rnd() * 100_000) - 500));
    fields.push(dbl('ratio', i % 11 === 0 ? -0 : Math.round(rnd() * 1000) / 100));
    specs.push({ n: `d${i}`, ts, fields });
  }
  const f = path.join(dir, 'seg.seg');
  await writeSegment(segment('seg', specs), f);
  file = openSegment(f);
});

after(() => {
  file.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function valueOf(spec: DocSpec, field: string): number | undefined {
  if (field === '_ts') return spec.ts;
  const f = spec.fields.find((x) => x.name === field);
  return f === undefined ? undefined : (f.values[0] as number);
}

function search(target: SegmentReader, query: Query, extra: Parameters<typeof request>[1] = {}) {
  return executeSearch([{ index: 'i', segment: target }], request(query, extra));
}

const labelsOf = (r: ReturnType<typeof search>) => r.hits.map((h) => (JSON.parse(h.source) as { n: string }).n);

interface Bounds {
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
}

function inRange(v: number | undefined, b: Bounds): boolean {
  if (v === undefined) return false;
  return (b.gt === undefined || v > b.gt) && (b.gte === undefined || v >= b.gte) && (b.lt === undefined || v < b.lt) && (b.lte === undefined || v <= b.lte);
}

function rangeQuery(field: string, b: Bounds): Query {
  const q: Record<string, unknown> = { kind: 'range', field };
  for (const [k, v] of Object.entries(b)) q[k] = String(v);
  return q as unknown as Query;
}

test('the points index orders the docs with a value by value, then doc id', () => {
  const column = Float64Array.of(5, NaN, 2, 5, -0, 0, 2, NaN, 7);
  const index = buildPointsIndex(column);
  assert.deepEqual(Array.from(index.docs), [4, 5, 2, 6, 0, 3, 8]);
  // 0 and -0 are one value to a range
  assert.deepEqual(Array.from(index.values, (v) => v + 0), [0, 0, 2, 2, 5, 5, 7]);
});

test('numeric ranges over a segment file give what a scan of the documents gives', () => {
  const cases: Array<[string, Bounds]> = [
    ['status', { gte: 500 }],
    ['status', { gt: 500 }],
    ['status', { gte: 301, lte: 404 }],
    ['status', { gt: 301, lt: 404 }],
    ['status', { lt: 200 }],
    ['size', { gte: 1000, lt: 2000 }],
    ['size', { lte: -400 }],
    ['size', { gt: 99_000 }],
    ['ratio', { gte: 0, lte: 0 }],
    ['ratio', { gt: 3.25, lte: 3.5 }],
    ['_ts', { gte: 1_700_000_020_000, lt: 1_700_000_020_100 }],
  ];
  for (const [field, b] of cases) {
    const want = specs.filter((s) => inRange(valueOf(s, field), b)).map((s) => s.n);
    const got = search(file, rangeQuery(field, b), { size: DOCS, sort: [{ field: '_doc', order: 'asc' }] });
    assert.equal(got.total, want.length, `${field} ${JSON.stringify(b)}`);
    assert.deepEqual(labelsOf(got), want, `${field} ${JSON.stringify(b)}`);
    // in a conjunction with a rare term too, where the range only checks a few candidates
    const rare = specs.filter((s, i) => i % 7 === 0 && inRange(valueOf(s, field), b)).length;
    const both = search(file, { kind: 'bool', must: [{ kind: 'match', field: '_line', text: 'gamma', operator: 'or' }], filter: [rangeQuery(field, b)], should: [], mustNot: [] }, { size: 0 });
    assert.equal(both.total, rare, `gamma AND ${field} ${JSON.stringify(b)}`);
  }
});

test('a selective range is planned on the points index, a wide one on the column', () => {
  const plan = (q: Query) => planQuery({ segment: file, limit: file.numDocs, index: 'i', nowMs: 0, deadline: new Deadline(undefined) }, q);
  const selective = plan(rangeQuery('status', { gt: 500 }));
  assert.equal(selective.op, 'column_range');
  assert.ok(selective.op === 'column_range' && selective.points !== null);
  const wide = plan(rangeQuery('size', { gte: -1000 }));
  assert.ok(wide.op === 'column_range' && wide.points === null);
  // time filters keep to segment bounds and the column
  const time = plan(rangeQuery('_ts', { gte: 1_700_000_020_000, lt: 1_700_000_020_100 }));
  assert.ok(time.op === 'column_range' && time.points === null);
  // docs past a snapshot's limit are not seen, whichever way the range is read
  const limited = executeSearch([{ index: 'i', segment: file, docLimit: 1000 }], request(rangeQuery('status', { gte: 500 }), { size: 0 }));
  assert.equal(limited.total, specs.slice(0, 1000).filter((s) => inRange(valueOf(s, 'status'), { gte: 500 })).length);
});

test('a count of a selective range or of every doc leaves out deleted docs and docs past the limit', () => {
  const deleted = Uint32Array.from({ length: DOCS / 5 }, (_, i) => i * 5);
  const gone = new Set(deleted);
  const cases: Array<[Query, (s: DocSpec) => boolean]> = [
    [rangeQuery('status', { gte: 500 }), (s) => inRange(valueOf(s, 'status'), { gte: 500 })],
    [{ kind: 'match_all' }, () => true],
  ];
  for (const [query, matches] of cases) {
    const count = (target: SearchTarget) => executeSearch([target], request(query, { size: 0, trackTotalHits: true })).total;
    assert.equal(count({ index: 'i', segment: file }), specs.filter(matches).length);
    assert.equal(count({ index: 'i', segment: file, deleted }), specs.filter((s, d) => !gone.has(d) && matches(s)).length);
    assert.equal(count({ index: 'i', segment: file, docLimit: 777 }), specs.slice(0, 777).filter(matches).length);
  }
});

/** The file reader with its `_ts` column wrapped to count reads of values. */
function countingTs(inner: SegmentReader): { reader: SegmentReader; reads: () => number } {
  let reads = 0;
  const column = inner.numeric('_ts')!;
  const counted = new Proxy(column, {
    get(target, prop) {
      if (typeof prop === 'string' && /^\d+$/.test(prop)) reads++;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const reader = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'numeric') return (field: string) => (field === '_ts' ? counted : target.numeric(field));
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { reader, reads: () => reads };
}

test('newest and oldest N by _ts: the right hits, read from the best blocks only', () => {
  const beta: Query = { kind: 'match', field: '_line', text: 'beta', operator: 'or' };
  const matches = specs.filter((_, i) => i % 3 !== 0);
  const byTs = (dir: 1 | -1) =>
    matches
      .map((s) => ({ s, pos: specs.indexOf(s) }))
      .sort((a, b) => dir * (a.s.ts - b.s.ts) || dir * (a.pos - b.pos))
      .map((x) => x.s.n);
  const { reader, reads } = countingTs(file);
  const target: SearchTarget = { index: 'i', segment: reader };
  const newest = executeSearch([target], request(beta, { size: 20 }));
  assert.equal(newest.total, matches.length);
  assert.deepEqual(labelsOf(newest), byTs(-1).slice(0, 20));
  const before = reads();
  const again = executeSearch([target], request(beta, { size: 20 }));
  assert.deepEqual(labelsOf(again), labelsOf(newest));
  // the block bounds are kept: a repeat reads the values of a few blocks, not of every match
  assert.ok(reads() - before < matches.length / 3, `read ${reads() - before} values for ${matches.length} matches`);
  const oldest = executeSearch([target], request(beta, { size: 20, sort: [{ field: '_ts', order: 'asc' }] }));
  assert.deepEqual(labelsOf(oldest), byTs(1).slice(0, 20));
  // search_after continues where the previous page stopped
  const next = executeSearch([target], request(beta, { size: 20, searchAfter: newest.hits.at(-1)!.sortValues }));
  assert.deepEqual(labelsOf(next), byTs(-1).slice(20, 40));
});

test('top-k on a numeric field with missing values, both orders and both missing placements', () => {
  const all: Query = { kind: 'match_all' };
  for (const order of ['asc', 'desc'] as const) {
    for (const missing of ['_first', '_last'] as const) {
      const want = specs
        .map((s, pos) => ({ s, pos, v: valueOf(s, 'size') }))
        .sort((a, b) => {
          if (a.v === undefined || b.v === undefined) {
            if (a.v === b.v) return order === 'asc' ? a.pos - b.pos : b.pos - a.pos;
            return (a.v === undefined) === (missing === '_first') ? -1 : 1;
          }
          return (order === 'asc' ? a.v - b.v : b.v - a.v) || (order === 'asc' ? a.pos - b.pos : b.pos - a.pos);
        })
        .slice(0, 30)
        .map((x) => x.s.n);
      const got = search(file, all, { size: 30, sort: [{ field: 'size', order, missing }] });
      assert.deepEqual(labelsOf(got), want, `${order} missing ${missing}`);
    }
  }
});

test('a segment file keeps the decoded postings of a term it was asked for', () => {
  const first = file.postings('_line', 'beta');
  assert.ok(first !== null && first.length > 1000);
  assert.equal(file.postings('_line', 'beta'), first);
  const positions = file.positions('_line', 'alpha');
  assert.ok(positions !== null);
  assert.equal(file.positions('_line', 'alpha'), positions);
  // a phrase over cached positions gives the same answer as the first time
  const phrase: Query = { kind: 'phrase', field: '_line', text: 'line alpha', slop: 0 } as Query;
  assert.equal(search(file, phrase, { size: 0 }).total, specs.filter((_, i) => i % 3 === 0).length);
  assert.equal(search(file, phrase, { size: 0 }).total, specs.filter((_, i) => i % 3 === 0).length);
});

test('the match bound of a numeric range is read off the points index, never below the matches', () => {
  const count = (q: Query) => executeSearch([{ index: 'i', segment: file }], request(q, { size: 0 })).total;
  const ranges: Query[] = [
    { kind: 'range', field: 'status', gte: 500 },
    { kind: 'range', field: 'status', gt: '404', lt: 503 },
    { kind: 'range', field: 'status', lte: 200 },
    { kind: 'range', field: 'size', gte: 99_000 },
    { kind: 'range', field: 'ratio', gt: 9.9 },
  ];
  for (const q of ranges) {
    // single-valued fields: the bound is the count itself
    assert.equal(matchUpperBound([file], q), count(q), JSON.stringify(q));
  }
  assert.equal(matchUpperBound([file], { kind: 'range', field: 'status', gte: 600 }), 0);
  assert.equal(matchUpperBound([file], { kind: 'range', field: 'nothing', gte: 1 }), 0, 'a field the segment lacks matches nothing there');
  // no cheap bound: dates, keyword ranges, bounds that are not numbers, memtables
  assert.equal(matchUpperBound([file], { kind: 'range', field: '_ts', gte: 0 }), Infinity);
  assert.equal(matchUpperBound([file], { kind: 'range', field: 'host', gte: 'h1' }), Infinity);
  assert.equal(matchUpperBound([file], { kind: 'range', field: 'status', gte: 'abc' }), Infinity);
  assert.equal(matchUpperBound([segment('m', specs.slice(0, 100))], { kind: 'range', field: 'status', gte: 500 }), Infinity);
});

test('built-in fields have no dictionary bound', () => {
  assert.equal(matchUpperBound([file], { kind: 'term', field: '_id', value: '1' }), Infinity);
  assert.equal(matchUpperBound([file], { kind: 'term', field: '_index', value: 'i' }), Infinity);
  assert.equal(matchUpperBound([file], { kind: 'term', field: 'host', value: 'h1' }), 5000);
});

test('the postings a query reads: every term counts, whatever the operator', () => {
  const word = (w: string): Query => ({ kind: 'match', field: '_line', text: w, operator: 'or' });
  const df = (w: string) => file.docFreq('_line', w);
  assert.ok(df('alpha') > 0 && df('gamma') > 0);
  assert.equal(postingsWork([file], word('alpha')), df('alpha'));
  const both: Query = { kind: 'bool', must: [word('alpha')], filter: [word('gamma')], should: [], mustNot: [] };
  assert.equal(matchUpperBound([file], both), Math.min(df('alpha'), df('gamma')));
  assert.equal(postingsWork([file], both), df('alpha') + df('gamma'));
  assert.equal(postingsWork([file], { kind: 'match', field: '_line', text: 'alpha gamma', operator: 'and' }), df('alpha') + df('gamma'));
  // a phrase reads positions too: its docs count twice
  assert.equal(postingsWork([file], { kind: 'phrase', field: '_line', text: 'line alpha', slop: 0 }), 2 * (df('line') + df('alpha')));
  // negations and a bool of nothing but negations are no small work
  assert.equal(postingsWork([file], { ...both, mustNot: [word('beta')] }), Infinity);
  assert.equal(postingsWork([file], { kind: 'bool', must: [], filter: [], should: [], mustNot: [] }), Infinity);
  assert.equal(postingsWork([file], { kind: 'match_none' }), 0);
});
