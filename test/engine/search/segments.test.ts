import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueryTimeoutError } from '../../../src/common/errors.js';
import type { Query } from '../../../src/query/index.js';
import type { SegmentReader } from '../../../src/engine/segment-reader.js';
import {
  executeSearch,
  matchSegment,
  requiredTsInterval,
  SEGMENT_STRIDE,
  segmentCanMatch,
  type SearchTarget,
} from '../../../src/engine/search/index.js';
import { kw, labels, long, mainCorpus, request, segment, text, type DocSpec } from './corpus.js';

const ALL: Query = { kind: 'match_all' };

function spec(n: string, ts: number, line: string, host = 'h'): DocSpec {
  return { n, ts, fields: [text('_line', line), kw('host', host), long('size', ts % 7)] };
}

// three segments by time: a (1000-3000), b (4000-6000), c (7000-9000)
function threeSegments(): SearchTarget[] {
  return [
    { index: 'i1', segment: segment('a', [spec('a0', 1000, 'alpha error'), spec('a1', 2000, 'beta'), spec('a2', 3000, 'gamma error', 'x')]) },
    { index: 'i1', segment: segment('b', [spec('b0', 4000, 'error one'), spec('b1', 5000, 'two', 'x'), spec('b2', 6000, 'three error')]) },
    { index: 'i2', segment: segment('c', [spec('c0', 7000, 'four'), spec('c1', 8000, 'error five'), spec('c2', 9000, 'six')]) },
  ];
}

/** A segment that fails the test if anything but its identity and time bounds is read. */
function untouchable(inner: SegmentReader): SegmentReader {
  const allowed = new Set(['id', 'numDocs', 'minTs', 'maxTs', 'maxLid']);
  return new Proxy(inner, {
    get(target, prop) {
      if (typeof prop === 'string' && !allowed.has(prop)) throw new Error(`segment read: ${prop}`);
      return Reflect.get(target, prop, target);
    },
  });
}

test('hits from several segments merge in sort order', () => {
  const targets = threeSegments();
  const r = executeSearch(targets, request({ kind: 'match', field: '_line', text: 'error', operator: 'or' }));
  assert.deepEqual(labels(r), ['c1', 'b2', 'b0', 'a2', 'a0']);
  assert.equal(r.total, 5);
  assert.deepEqual(r.hits.map((h) => h.index), ['i2', 'i1', 'i1', 'i1', 'i1']);
  assert.deepEqual(r.hits[0]!.sortValues, [8000, 2 * SEGMENT_STRIDE + 1]);
  const asc = executeSearch(targets, request(ALL, { sort: [{ field: 'size', order: 'asc' }, { field: '_ts', order: 'asc' }] }));
  // size is ts % 7: 1000→6, 2000→5, 3000→4, 4000→3, 5000→2, 6000→1, 7000→0, 8000→6, 9000→5
  assert.deepEqual(labels(asc), ['c0', 'b2', 'b1', 'b0', 'a2', 'a1', 'c2', 'a0', 'c1']);
  const byHost = executeSearch(targets, request(ALL, { sort: [{ field: 'host', order: 'desc' }, { field: '_ts', order: 'asc' }], size: 3 }));
  assert.deepEqual(labels(byHost), ['a2', 'b1', 'a0']);
  assert.deepEqual(byHost.hits.map((h) => h.sortValues), [['x', 3000], ['x', 5000], ['h', 1000]]);
});

test('paging and search_after across segments', () => {
  const targets = threeSegments();
  assert.deepEqual(labels(executeSearch(targets, request(ALL, { from: 2, size: 4 }))), ['c0', 'b2', 'b1', 'b0']);
  const seen: string[] = [];
  let after: unknown[] | undefined;
  for (let guard = 0; guard < 10; guard++) {
    const page = executeSearch(targets, request(ALL, { size: 2, ...(after ? { searchAfter: after } : {}) }));
    if (page.hits.length === 0) break;
    seen.push(...labels(page));
    after = page.hits.at(-1)!.sortValues;
  }
  assert.deepEqual(seen, ['c2', 'c1', 'c0', 'b2', 'b1', 'b0', 'a2', 'a1', 'a0']);
});

test('equal _ts across segments: later segment first, then higher doc id', () => {
  const targets: SearchTarget[] = [
    { index: 'i', segment: segment('s0', [spec('s0a', 500, 'x'), spec('s0b', 500, 'x')]) },
    { index: 'i', segment: segment('s1', [spec('s1a', 500, 'x'), spec('s1b', 500, 'x')]) },
  ];
  assert.deepEqual(labels(executeSearch(targets, request(ALL))), ['s1b', 's1a', 's0b', 's0a']);
  assert.deepEqual(labels(executeSearch(targets, request(ALL, { sort: [{ field: '_ts', order: 'asc' }] }))), ['s0a', 's0b', 's1a', 's1b']);
});

test('a _ts range skips segments outside it without reading them', () => {
  const [a, b, c] = threeSegments();
  const targets = [
    { ...a!, segment: untouchable(a!.segment) },
    b!,
    { ...c!, segment: untouchable(c!.segment) },
  ];
  const q: Query = { kind: 'range', field: '_ts', gte: 4500, lt: 6500 };
  const r = executeSearch(targets, request(q));
  assert.deepEqual(labels(r), ['b2', 'b1']);
  assert.deepEqual(r.stats, { segmentsSearched: 1, segmentsSkipped: 2 });
  assert.equal(executeSearch(targets, request(q, { size: 0 })).stats?.segmentsSkipped, 2);
  const nested: Query = {
    kind: 'bool',
    must: [{ kind: 'match', field: '_line', text: 'error', operator: 'or' }],
    filter: [{ kind: 'range', field: '_ts', gte: 4000, lte: 6000 }],
    should: [],
    mustNot: [],
  };
  assert.deepEqual(labels(executeSearch(targets, request(nested))), ['b2', 'b0']);
});

test('segmentCanMatch compares the query time bounds with the segment', () => {
  const [a] = threeSegments();
  const can = (q: Query) => segmentCanMatch(a!.segment, requiredTsInterval(q, 0));
  assert.equal(can({ kind: 'range', field: '_ts', gte: 3000 }), true);
  assert.equal(can({ kind: 'range', field: '_ts', gt: 3000 }), true);
  assert.equal(can({ kind: 'range', field: '_ts', gte: 3001 }), false);
  assert.equal(can({ kind: 'range', field: '_ts', lt: 1000 }), true);
  assert.equal(can({ kind: 'range', field: '_ts', lt: 999 }), false);
  assert.equal(can({ kind: 'term', field: '_ts', value: 5000 }), false);
  assert.equal(can({ kind: 'match_none' }), false);
  assert.equal(can({ kind: 'match', field: '_line', text: 'x', operator: 'or' }), true);
  const should = (lo: number, hi: number): Query => ({ kind: 'range', field: '_ts', gte: lo, lte: hi });
  assert.equal(can({ kind: 'bool', must: [], filter: [], mustNot: [], should: [should(5000, 6000), should(7000, 8000)] }), false);
  assert.equal(can({ kind: 'bool', must: [], filter: [], mustNot: [], should: [should(5000, 6000), should(0, 1000)] }), true);
  assert.equal(can({ kind: 'bool', must: [], filter: [], mustNot: [should(0, 9999)], should: [] }), true);
  assert.equal(can({ kind: 'bool', must: [should(0, 1500)], filter: [should(2500, 9999)], mustNot: [], should: [] }), false);
});

test('docLimit hides docs added after the snapshot', () => {
  const [target] = mainCorpus();
  const limited: SearchTarget = { ...target!, docLimit: 5 };
  assert.deepEqual(labels(executeSearch([limited], request(ALL))), ['d4', 'd3', 'd2', 'd1', 'd0']);
  assert.equal(executeSearch([limited], request(ALL)).total, 5);
  const noStatus: Query = { kind: 'bool', must: [], should: [], filter: [], mustNot: [{ kind: 'range', field: 'status', gte: 0 }] };
  assert.deepEqual(labels(executeSearch([limited], request(noStatus))), []);
  assert.deepEqual(labels(executeSearch([{ ...target!, docLimit: 6 }], request(noStatus))), ['d5']);
  const fox: Query = { kind: 'phrase', field: '_line', text: 'quick fox', slop: 1 };
  assert.deepEqual(labels(executeSearch([limited], request(fox))), ['d4']);
  const web: Query = { kind: 'wildcard', field: 'host', pattern: 'web-*' };
  assert.deepEqual(labels(executeSearch([limited], request(web))), ['d4', 'd2', 'd1', 'd0']);
  assert.deepEqual(labels(executeSearch([limited], request({ kind: 'range', field: 'took', gte: 0 }))), ['d3', 'd1', 'd0']);
  assert.deepEqual(labels(executeSearch([limited], request({ kind: 'ids', values: ['11', '16'] }))), ['d0']);
  assert.deepEqual(matchSegment(limited, ALL), Uint32Array.from([0, 1, 2, 3, 4]));
});

test('a growing memtable: docs added later are seen, the sort stays right when _ts goes back', () => {
  const seg = segment('grow', [spec('g0', 100, 'x'), spec('g1', 200, 'x'), spec('g2', 300, 'x')]);
  const target: SearchTarget = { index: 'i', segment: seg };
  assert.deepEqual(labels(executeSearch([target], request(ALL, { size: 2 }))), ['g2', 'g1']);
  seg.add({ id: 99n, lid: 4, ts: 250, source: JSON.stringify({ n: 'g3' }), fields: [text('_line', 'x')] });
  seg.add({ id: 98n, lid: 5, ts: 400, source: JSON.stringify({ n: 'g4' }), fields: [text('_line', 'x')] });
  assert.deepEqual(labels(executeSearch([target], request(ALL))), ['g4', 'g2', 'g3', 'g1', 'g0']);
  assert.deepEqual(labels(executeSearch([target], request(ALL, { sort: [{ field: '_ts', order: 'asc' }] }))), ['g0', 'g1', 'g3', 'g2', 'g4']);
  const r = executeSearch([target], request(ALL, { size: 2, searchAfter: [300, 2] }));
  assert.deepEqual(labels(r), ['g3', 'g1']);
});

test('out-of-order _ts in a segment still sorts newest first', () => {
  const seg = segment('ooo', [spec('o0', 5, 'x'), spec('o1', 1, 'x'), spec('o2', 9, 'x'), spec('o3', 3, 'x'), spec('o4', 9, 'x')]);
  const t: SearchTarget[] = [{ index: 'i', segment: seg }];
  assert.deepEqual(labels(executeSearch(t, request(ALL))), ['o4', 'o2', 'o0', 'o3', 'o1']);
  assert.deepEqual(labels(executeSearch(t, request(ALL, { size: 2 }))), ['o4', 'o2']);
  assert.deepEqual(labels(executeSearch(t, request(ALL, { size: 2, searchAfter: [9, 2] }))), ['o0', 'o3']);
  assert.deepEqual(labels(executeSearch(t, request(ALL, { sort: [{ field: '_ts', order: 'asc' }], size: 3 }))), ['o1', 'o3', 'o0']);
});

test('empty segments and an empty target list', () => {
  const empty: SearchTarget = { index: 'i', segment: segment('empty', []) };
  const r = executeSearch([empty], request(ALL));
  assert.deepEqual([r.total, r.hits.length], [0, 0]);
  assert.deepEqual(executeSearch([], request(ALL)).hits, []);
  assert.deepEqual(r.stats, { segmentsSearched: 0, segmentsSkipped: 1 });
});

test('a past deadline stops the search with a timeout error', () => {
  const targets = threeSegments();
  assert.throws(() => executeSearch(targets, request(ALL, { deadlineMs: Date.now() - 1 })), QueryTimeoutError);
  assert.throws(() => executeSearch(targets, request(ALL, { size: 0, deadlineMs: Date.now() - 1 })), QueryTimeoutError);
  assert.equal(executeSearch(targets, request(ALL, { deadlineMs: Date.now() + 60_000 })).total, 9);
});

test('the deadline is checked inside long loops, not only between segments', () => {
  const docs: DocSpec[] = [];
  for (let i = 0; i < 140_000; i++) docs.push({ n: String(i), ts: i, fields: [long('v', i % 100)] });
  const big: SearchTarget = { index: 'i', segment: segment('big', docs) };
  const q: Query = { kind: 'range', field: 'v', gte: 10 };
  assert.equal(executeSearch([big], request(q, { size: 0 })).total, 126_000);
  // a clock that moves one millisecond per look: the look before the segment passes, the next fails
  const realNow = Date.now;
  let t = realNow();
  const deadlineMs = t + 1;
  Date.now = () => ++t;
  try {
    assert.throws(() => executeSearch([big], request(q, { size: 0, deadlineMs, nowMs: 0 })), QueryTimeoutError);
  } finally {
    Date.now = realNow;
  }
});

test('newest or oldest hits: once the page is full and the tracked total passed, segments that cannot enter it are not read', () => {
  const [a, b, c] = threeSegments();
  // given out of time order: the visit goes by the segments' time bounds, ties still by position
  const newestFirst = [{ ...a!, segment: untouchable(a!.segment) }, c!, b!];
  const r = executeSearch(newestFirst, request(ALL, { size: 2, trackTotalHits: 3 }));
  assert.deepEqual(labels(r), ['c2', 'c1']);
  assert.deepEqual([r.total, r.totalRelation], [3, 'gte']);
  assert.deepEqual(r.stats, { segmentsSearched: 2, segmentsSkipped: 1 });

  const oldestFirst = [b!, { ...c!, segment: untouchable(c!.segment) }, a!];
  const asc = executeSearch(oldestFirst, request(ALL, { size: 2, trackTotalHits: 3, sort: [{ field: '_ts', order: 'asc' }] }));
  assert.deepEqual(labels(asc), ['a0', 'a1']);
  assert.equal(asc.stats?.segmentsSkipped, 1);

  // an exact total reads every segment, and the page is the same
  const exact = executeSearch(threeSegments(), request(ALL, { size: 2, trackTotalHits: true }));
  assert.deepEqual(labels(exact), ['c2', 'c1']);
  assert.deepEqual([exact.total, exact.totalRelation], [9, 'eq']);
  // a segment whose newest doc ties the page's last hit may still hold a better one by position
  const tied: SearchTarget[] = [
    { index: 'i', segment: segment('t0', [spec('t0a', 500, 'x'), spec('t0b', 600, 'x')]) },
    { index: 'i', segment: segment('t1', [spec('t1a', 500, 'x'), spec('t1b', 500, 'x')]) },
  ];
  assert.deepEqual(labels(executeSearch(tied, request(ALL, { size: 2, trackTotalHits: 1 }))), ['t0b', 't1b']);
});

test('no hits wanted: counting stops at the first segment that takes the total past what is tracked', () => {
  const [a, b, c] = threeSegments();
  const r = executeSearch([a!, { ...b!, segment: untouchable(b!.segment) }, { ...c!, segment: untouchable(c!.segment) }], request(ALL, { size: 0, trackTotalHits: 2 }));
  assert.deepEqual([r.total, r.totalRelation, r.stats?.segmentsSkipped], [2, 'gte', 2]);
  assert.deepEqual([executeSearch(threeSegments(), request(ALL, { size: 0, trackTotalHits: 9 })).total], [9]);
});
