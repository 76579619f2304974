import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BadRequestError } from '../../../src/common/errors.js';
import type { Query } from '../../../src/query/index.js';
import { executeSearch, SEGMENT_STRIDE, type SortKey } from '../../../src/engine/search/index.js';
import { DOCS, labels, mainCorpus, request } from './corpus.js';

const targets = mainCorpus();
const ALL: Query = { kind: 'match_all' };
const sorted = (sort: SortKey[], q: Query = ALL): string[] => labels(executeSearch(targets, request(q, { sort })));
const values = (sort: SortKey[], q: Query = ALL) => executeSearch(targets, request(q, { sort })).hits.map((h) => h.sortValues);

test('default sort is newest first with _ts and _doc sort values', () => {
  const r = executeSearch(targets, request(ALL, { size: 3 }));
  assert.deepEqual(labels(r), ['d9', 'd8', 'd7']);
  assert.deepEqual(r.hits[0]!.sortValues, [DOCS[9]!.ts, 9]);
  assert.equal(r.hits[0]!.id, '20');
  assert.equal(r.hits[0]!.index, 'logs');
  assert.equal(r.hits[0]!.score, null);
  assert.equal(r.maxScore, null);
  assert.equal(r.total, 10);
  assert.equal(r.totalRelation, 'eq');
  assert.deepEqual(JSON.parse(r.hits[0]!.source), { n: 'd9', _ts: DOCS[9]!.ts, _lid: 10 });
});

test('from and size page through the sorted hits', () => {
  assert.deepEqual(labels(executeSearch(targets, request(ALL, { from: 2, size: 3 }))), ['d7', 'd6', 'd5']);
  assert.deepEqual(labels(executeSearch(targets, request(ALL, { from: 8, size: 5 }))), ['d1', 'd0']);
  assert.deepEqual(labels(executeSearch(targets, request(ALL, { from: 20, size: 5 }))), []);
  const counted = executeSearch(targets, request({ kind: 'match', field: '_line', text: 'error', operator: 'or' }, { size: 0 }));
  assert.deepEqual(counted.hits, []);
  assert.equal(counted.total, 3);
  assert.throws(() => executeSearch(targets, request(ALL, { from: -1 })), BadRequestError);
});

test('sort by _ts, _doc and _lid in both directions', () => {
  assert.deepEqual(sorted([{ field: '_ts', order: 'asc' }]), DOCS.map((d) => d.n));
  assert.deepEqual(sorted([{ field: '_ts', order: 'desc' }]), DOCS.map((d) => d.n).reverse());
  assert.deepEqual(sorted([{ field: '_doc', order: 'asc' }]), DOCS.map((d) => d.n));
  assert.deepEqual(sorted([{ field: '_lid', order: 'desc' }]), DOCS.map((d) => d.n).reverse());
  assert.deepEqual(values([{ field: '_lid', order: 'asc' }]).slice(0, 2), [[1], [2]]);
});

test('sort by a long field with missing values last or first', () => {
  assert.deepEqual(sorted([{ field: 'status', order: 'asc' }]), ['d0', 'd3', 'd8', 'd4', 'd1', 'd6', 'd2', 'd5', 'd7', 'd9']);
  assert.deepEqual(sorted([{ field: 'status', order: 'desc' }]), ['d2', 'd6', 'd1', 'd4', 'd8', 'd3', 'd0', 'd9', 'd7', 'd5']);
  assert.deepEqual(
    sorted([{ field: 'status', order: 'asc', missing: '_first' }]),
    ['d5', 'd7', 'd9', 'd0', 'd3', 'd8', 'd4', 'd1', 'd6', 'd2'],
  );
  assert.deepEqual(values([{ field: 'status', order: 'asc' }]).map((v) => v[0]), [200, 200, 201, 404, 500, 500, 503, null, null, null]);
});

test('sort by double and date fields', () => {
  assert.deepEqual(sorted([{ field: 'took', order: 'desc' }]), ['d1', 'd5', 'd7', 'd0', 'd3', 'd9', 'd8', 'd6', 'd4', 'd2']);
  assert.deepEqual(sorted([{ field: 'at', order: 'asc' }]), ['d8', 'd0', 'd1', 'd6', 'd2', 'd3', 'd4', 'd5', 'd7', 'd9']);
  assert.equal(values([{ field: 'at', order: 'asc' }])[0]![0], Date.parse('2023-12-31T00:00:00Z'));
});

test('sort by a keyword field compares strings and emits them', () => {
  assert.deepEqual(sorted([{ field: 'host', order: 'asc' }]), ['d3', 'd7', 'd0', 'd2', 'd9', 'd5', 'd1', 'd4', 'd8', 'd6']);
  assert.deepEqual(sorted([{ field: 'host', order: 'desc' }]), ['d8', 'd4', 'd1', 'd5', 'd9', 'd2', 'd0', 'd7', 'd3', 'd6']);
  assert.deepEqual(sorted([{ field: 'host.keyword', order: 'desc' }]), ['d8', 'd4', 'd1', 'd5', 'd9', 'd2', 'd0', 'd7', 'd3', 'd6']);
  assert.deepEqual(values([{ field: 'host', order: 'asc' }]).map((v) => v[0]), [
    'Web-3', 'db-1', 'web-1', 'web-1', 'web-1', 'web-10', 'web-2', 'web-2', 'web-2', null,
  ]);
});

test('several sort keys, an unknown field, a text field', () => {
  assert.deepEqual(
    sorted([
      { field: 'host', order: 'asc' },
      { field: '_ts', order: 'desc' },
    ]).slice(2, 5),
    ['d9', 'd2', 'd0'],
  );
  assert.deepEqual(sorted([{ field: 'nosuchfield', order: 'asc' }]), DOCS.map((d) => d.n));
  assert.deepEqual(values([{ field: 'nosuchfield', order: 'asc' }])[0], [null]);
  assert.throws(() => sorted([{ field: '_line', order: 'asc' }]), BadRequestError);
});

test('sort by _id compares the 64-bit ids', () => {
  assert.deepEqual(sorted([{ field: '_id', order: 'desc' }]), DOCS.map((d) => d.n).reverse());
  assert.deepEqual(values([{ field: '_id', order: 'asc' }])[0], ['11']);
});

test('_score sort counts matching clauses; scores only when asked', () => {
  const q: Query = { kind: 'match', field: '_line', text: 'quick brown dog', operator: 'or' };
  const r = executeSearch(targets, request(q, { sort: [{ field: '_score', order: 'desc' }] }));
  assert.deepEqual(labels(r), ['d9', 'd4', 'd8', 'd7', 'd5']);
  assert.deepEqual(r.hits.map((h) => h.score), [3, 3, 2, 2, 2]);
  assert.equal(r.maxScore, 3);
  const byDefault = executeSearch(targets, request(q));
  assert.deepEqual(byDefault.hits.map((h) => h.score), [null, null, null, null, null]);
  assert.equal(byDefault.maxScore, null);
});

test('bool scores: must and matching should clauses add up, filters score nothing', () => {
  const score = (q: Query) => {
    const r = executeSearch(targets, request(q, { sort: [{ field: '_score', order: 'desc' }] }));
    return { labels: labels(r), scores: r.hits.map((h) => h.score), max: r.maxScore };
  };
  const b = (parts: Partial<Extract<Query, { kind: 'bool' }>>): Query => ({
    kind: 'bool', must: [], should: [], mustNot: [], filter: [], ...parts,
  });
  assert.deepEqual(
    score(
      b({
        must: [{ kind: 'match', field: '_line', text: 'error', operator: 'or' }],
        should: [{ kind: 'term', field: 'host', value: 'web-1', boost: 2 }],
      }),
    ),
    { labels: ['d2', 'd6', 'd1'], scores: [3, 1, 1], max: 3 },
  );
  assert.deepEqual(score(b({ filter: [{ kind: 'term', field: 'host', value: 'web-2' }] })), {
    labels: ['d8', 'd4', 'd1'],
    scores: [0, 0, 0],
    max: 0,
  });
  assert.deepEqual(score({ kind: 'constant_score', filter: { kind: 'term', field: 'host', value: 'db-1' }, boost: 2.5 }), {
    labels: ['d7'],
    scores: [2.5],
    max: 2.5,
  });
});

test('search_after continues after the last hit of the previous page', () => {
  const first = executeSearch(targets, request(ALL, { size: 3 }));
  const next = executeSearch(targets, request(ALL, { size: 3, searchAfter: first.hits[2]!.sortValues }));
  assert.deepEqual(labels(next), ['d6', 'd5', 'd4']);
  assert.equal(next.total, 10);
  // a whole walk in pages of 4 visits every doc once, in order
  const seen: string[] = [];
  let after: unknown[] | undefined;
  for (;;) {
    const page = executeSearch(targets, request(ALL, { size: 4, sort: [{ field: 'status', order: 'asc' }, { field: '_doc', order: 'asc' }], ...(after ? { searchAfter: after } : {}) }));
    if (page.hits.length === 0) break;
    seen.push(...labels(page));
    after = page.hits[page.hits.length - 1]!.sortValues;
  }
  assert.deepEqual(seen, ['d0', 'd3', 'd8', 'd4', 'd1', 'd6', 'd2', 'd5', 'd7', 'd9']);
});

test('search_after skips hits equal to the given values', () => {
  const after = (sort: SortKey[], searchAfter: unknown[]) => labels(executeSearch(targets, request(ALL, { sort, searchAfter })));
  assert.deepEqual(after([{ field: 'status', order: 'asc' }], [200]), ['d8', 'd4', 'd1', 'd6', 'd2', 'd5', 'd7', 'd9']);
  assert.deepEqual(after([{ field: 'status', order: 'asc' }], [null]), []);
  assert.deepEqual(after([{ field: 'status', order: 'asc', missing: '_first' }], [null]), ['d0', 'd3', 'd8', 'd4', 'd1', 'd6', 'd2']);
  assert.deepEqual(after([{ field: 'host', order: 'asc' }], ['web-1']), ['d5', 'd1', 'd4', 'd8', 'd6']);
  // a value between two terms of the segment
  assert.deepEqual(after([{ field: 'host', order: 'asc' }], ['web-15']), ['d1', 'd4', 'd8', 'd6']);
  assert.deepEqual(after([{ field: 'host', order: 'desc' }], ['web-15']), ['d5', 'd9', 'd2', 'd0', 'd7', 'd3', 'd6']);
  assert.deepEqual(after([{ field: '_ts', order: 'asc' }], [String(DOCS[7]!.ts)]), ['d8', 'd9']);
  assert.deepEqual(after([{ field: '_id', order: 'asc' }], ['17']), ['d7', 'd8', 'd9']);
  assert.deepEqual(after([{ field: '_doc', order: 'desc' }], [2]), ['d1', 'd0']);
  assert.throws(() => after([{ field: 'status', order: 'asc' }], [1, 2]), BadRequestError);
  assert.throws(() => after([{ field: 'status', order: 'asc' }], ['abc']), BadRequestError);
});

test('search_after with _score', () => {
  const q: Query = { kind: 'match', field: '_line', text: 'quick brown dog', operator: 'or' };
  const sort: SortKey[] = [{ field: '_score', order: 'desc' }, { field: '_doc', order: 'desc' }];
  const r = executeSearch(targets, request(q, { sort, searchAfter: [3, 4] }));
  assert.deepEqual(labels(r), ['d8', 'd7', 'd5']);
});

test('track_total_hits: exact, capped, or not needed', () => {
  const total = (trackTotalHits: boolean | number) => {
    const r = executeSearch(targets, request(ALL, { trackTotalHits, size: 2 }));
    return [r.total, r.totalRelation];
  };
  assert.deepEqual(total(true), [10, 'eq']);
  assert.deepEqual(total(3), [3, 'gte']);
  assert.deepEqual(total(10), [10, 'eq']);
  assert.deepEqual(total(20), [10, 'eq']);
  const loose = executeSearch(targets, request(ALL, { trackTotalHits: false, size: 2 }));
  assert.equal(loose.hits.length, 2);
  assert.ok(loose.total >= 2);
});

test('terminate_after stops collecting after that many matches per segment', () => {
  const r = executeSearch(targets, request(ALL, { terminateAfter: 3 }));
  assert.equal(r.total, 3);
  assert.equal(r.terminatedEarly, true);
  assert.deepEqual(labels(r), ['d2', 'd1', 'd0']);
  const all = executeSearch(targets, request(ALL, { terminateAfter: 10 }));
  assert.equal(all.terminatedEarly, false);
  assert.equal(all.total, 10);
  const counted = executeSearch(targets, request(ALL, { size: 0, terminateAfter: 4 }));
  assert.deepEqual([counted.total, counted.terminatedEarly, counted.hits.length], [4, true, 0]);
});

test('size 0 counts without collecting', () => {
  const count = (q: Query) => executeSearch(targets, request(q, { size: 0 }));
  assert.equal(count({ kind: 'match', field: '_line', text: 'error', operator: 'or' }).total, 3);
  assert.equal(count({ kind: 'match_none' }).total, 0);
  assert.equal(count(ALL).total, 10);
  assert.deepEqual(count(ALL).hits, []);
});

test('_doc sort values encode segment order and doc id', () => {
  assert.equal(SEGMENT_STRIDE, 2 ** 32);
  assert.deepEqual(values([{ field: '_doc', order: 'asc' }])[3], [3]);
});
