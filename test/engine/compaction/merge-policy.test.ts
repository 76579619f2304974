import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { idleMerge, nextMerge, type MergeCandidate, type MergePolicyOptions } from '../../../src/engine/compaction/index.js';

const policy: MergePolicyOptions = { l0MergeFactor: 3, l1MergeFactor: 3, maxMergeSegments: 4, l2MinDocs: 1000, maxSegmentDocs: 5000 };
const seg = (id: string, level: number, numDocs: number): MergeCandidate => ({ id, level, numDocs, sizeBytes: numDocs * 100 });

describe('merge policy', () => {
  it('does nothing while levels are below their factors', () => {
    assert.equal(nextMerge([], policy), null);
    assert.equal(nextMerge([seg('a', 0, 10), seg('b', 0, 10), seg('c', 1, 100), seg('d', 1, 100)], policy), null);
  });

  it('merges L0 segments into L1 once there are enough, at most maxMergeSegments at once', () => {
    assert.deepEqual(nextMerge([seg('a', 0, 10), seg('b', 0, 10), seg('c', 0, 10)], policy), { from: 0, to: 1, segmentIds: ['a', 'b', 'c'] });
    const many = ['a', 'b', 'c', 'd', 'e'].map((id) => seg(id, 0, 10));
    assert.deepEqual(nextMerge(many, policy)!.segmentIds, ['a', 'b', 'c', 'd']);
  });

  it('merges the smallest L1 segments into L1, or into L2 when the result is big enough', () => {
    const small = [seg('x', 1, 300), seg('y', 1, 100), seg('z', 1, 200)];
    assert.deepEqual(nextMerge(small, policy), { from: 1, to: 1, segmentIds: ['y', 'z', 'x'] });
    const big = [seg('x', 1, 400), seg('y', 1, 400), seg('z', 1, 400)];
    assert.deepEqual(nextMerge(big, policy), { from: 1, to: 2, segmentIds: ['x', 'y', 'z'] });
  });

  it('leaves L2 and oversized segments alone, and prefers L0 work', () => {
    assert.equal(nextMerge([seg('a', 2, 10), seg('b', 2, 10), seg('c', 2, 10)], policy), null);
    assert.equal(nextMerge([seg('a', 1, 6000), seg('b', 1, 6000), seg('c', 1, 6000)], policy), null);
    const mixed = [seg('a', 1, 10), seg('b', 1, 10), seg('c', 1, 10), seg('d', 0, 1), seg('e', 0, 1), seg('f', 0, 1)];
    assert.equal(nextMerge(mixed, policy)!.from, 0);
  });

  it('merges every L0 segment of an idle index, even one, and nothing else', () => {
    assert.equal(idleMerge([seg('a', 1, 10), seg('b', 2, 10)], policy), null);
    assert.deepEqual(idleMerge([seg('a', 0, 10)], policy), { from: 0, to: 1, segmentIds: ['a'] });
    const mixed = [seg('a', 1, 10), seg('b', 0, 10), seg('c', 0, 6000), seg('d', 0, 5), ...['e', 'f', 'g', 'h'].map((id) => seg(id, 0, 1))];
    assert.deepEqual(idleMerge(mixed, policy), { from: 0, to: 1, segmentIds: ['b', 'd', 'e', 'f'] });
  });
});
