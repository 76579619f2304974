import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planPlacements } from '../../src/cluster/index.js';

describe('placement of indexes on cache nodes', () => {
  it('places each unplaced index on the live cache node with the fewest, counting this round, ties by id', () => {
    const change = planPlacements(['d', 'a', 'b', 'c', 'e'], [{ index: 'a', nodeId: 'n2' }], ['n2', 'n1', 'n3']);
    assert.deepEqual(change, {
      place: [
        { index: 'b', nodeId: 'n1' },
        { index: 'c', nodeId: 'n3' },
        { index: 'd', nodeId: 'n1' },
        { index: 'e', nodeId: 'n2' },
      ],
      remove: [],
    });
  });

  it('one cache node (a single process) takes every index', () => {
    assert.deepEqual(planPlacements(['x', 'y'], [], ['self']).place, [
      { index: 'x', nodeId: 'self' },
      { index: 'y', nodeId: 'self' },
    ]);
  });

  it('drops placements of deleted indexes; places nothing without a live cache node; leaves indexes of dead nodes where they are', () => {
    const placements = [
      { index: 'gone', nodeId: 'n1' },
      { index: 'kept', nodeId: 'dead' },
    ];
    assert.deepEqual(planPlacements(['kept', 'new'], placements, []), { place: [], remove: ['gone'] });
    assert.deepEqual(planPlacements(['kept', 'new'], placements, ['n1']), { place: [{ index: 'new', nodeId: 'n1' }], remove: ['gone'] });
  });
});
