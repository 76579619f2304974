import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { packResult, unpackResult } from '../../../src/engine/query-pool/packed-result.js';
import type { SearchResult } from '../../../src/engine/search/types.js';

/** What the main thread gets: the packed form copied as a message between threads is. */
function roundTrip(result: SearchResult): SearchResult {
  return unpackResult(structuredClone(packResult(result)));
}

describe('packed search results', () => {
  it('gives back every hit field, strings of any content and sort values of every kind', () => {
    const result: SearchResult = {
      total: 12,
      totalRelation: 'gte',
      maxScore: 2.5,
      terminatedEarly: true,
      stats: { segmentsSearched: 3, segmentsSkipped: 1 },
      hits: [
        { index: 'logs', id: '7330188040355840', source: '{"_line":"a \\"quoted\\" line","n":1}', score: 2.5, sortValues: [2.5, 1704067200000, 'web-1'], position: 4294967298 },
        { index: 'logs-2', id: 'client id with ,;\n and é and 😀', source: '{"k":"\u0000\u2028 lone \ud800"}', score: 0, sortValues: [0, -0, null], position: 0 },
        { index: 'l', id: '', source: '{}', score: -1, sortValues: [Infinity, -Infinity, ''] },
      ],
    };
    assert.deepStrictEqual(roundTrip(result), result);
  });

  it('keeps hits without scores unscored, and NaN sort values', () => {
    const result: SearchResult = {
      total: 2,
      totalRelation: 'eq',
      maxScore: null,
      terminatedEarly: false,
      hits: [
        { index: 'a', id: '1', source: '{"x":1}', score: null, sortValues: [NaN], position: 1 },
        { index: 'a', id: '2', source: '{"x":2}', score: null, sortValues: [], position: 2 },
      ],
    };
    const back = roundTrip(result);
    assert.deepStrictEqual(back, result);
    assert.equal(back.stats, undefined);
  });

  it('carries an empty page', () => {
    const result: SearchResult = { total: 0, totalRelation: 'eq', maxScore: null, terminatedEarly: false, hits: [], stats: { segmentsSearched: 0, segmentsSkipped: 2 } };
    assert.deepStrictEqual(roundTrip(result), result);
  });
});
