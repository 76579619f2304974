import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planMove, planPlacements } from '../../src/cluster/index.js';

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

  it('with moveFromDead, moves the indexes of nodes that are not live to the live ones with the fewest', () => {
    const placements = [
      { index: 'a', nodeId: 'dead' },
      { index: 'b', nodeId: 'n1' },
      { index: 'c', nodeId: 'dead' },
    ];
    assert.deepEqual(planPlacements(['a', 'b', 'c', 'd'], placements, ['n1', 'n2'], { moveFromDead: true }), {
      place: [{ index: 'd', nodeId: 'n2' }],
      remove: [],
      move: [
        { index: 'a', from: 'dead', nodeId: 'n1' },
        { index: 'c', from: 'dead', nodeId: 'n2' },
      ],
    });
    // nowhere to go: they stay
    assert.deepEqual(planPlacements(['a'], placements, [], { moveFromDead: true }), { place: [], remove: ['b', 'c'], move: [] });
  });

  it('keeps a young placement of an index not created yet, drops it once older than the grace', () => {
    const placements = [{ index: 'soon', nodeId: 'n1', placedAtMs: 10_000 }];
    assert.deepEqual(planPlacements([], placements, ['n1'], { nowMs: 15_000, graceMs: 60_000 }).remove, []);
    assert.deepEqual(planPlacements([], placements, ['n1'], { nowMs: 80_000, graceMs: 60_000 }).remove, ['soon']);
  });

  it('a draining node takes no new index, and its indexes are not counted as stranded', () => {
    const placements = [{ index: 'a', nodeId: 'n1' }];
    assert.deepEqual(planPlacements(['a', 'b', 'c'], placements, ['n1', 'n2'], { moveFromDead: true, draining: new Set(['n2']) }), {
      place: [
        { index: 'b', nodeId: 'n1' },
        { index: 'c', nodeId: 'n1' },
      ],
      remove: [],
      move: [],
    });
  });
});

describe('live moves between cache nodes', () => {
  const nodes = (...ids: string[]) => ids.map((id) => ({ id, draining: id.endsWith('!') }));
  const on = (nodeId: string, ...indexes: string[]) => indexes.map((index) => ({ index, nodeId }));

  it('none while the counts differ by at most one, or with a single node', () => {
    assert.equal(planMove(['a', 'b', 'c'], [...on('n1', 'a', 'b'), ...on('n2', 'c')], nodes('n1', 'n2')), undefined);
    assert.equal(planMove(['a', 'b', 'c'], on('n1', 'a', 'b', 'c'), nodes('n1')), undefined);
  });

  it('a joining node gets the first index of the busiest, one move at a time', () => {
    const placements = [...on('n1', 'd', 'b', 'c'), ...on('n2', 'e', 'f', 'g')];
    assert.deepEqual(planMove(['b', 'c', 'd', 'e', 'f', 'g'], placements, nodes('n1', 'n2', 'n3')), { index: 'b', from: 'n1', to: 'n3' });
    // placements of deleted indexes and of dead nodes are not counted
    assert.equal(planMove(['b', 'e'], [...placements, ...on('dead', 'x', 'y')], nodes('n1', 'n2', 'n3')), undefined);
  });

  it("a draining node's indexes go first, to the node with the fewest; with no node to take them, none", () => {
    const placements = [...on('n1!', 'a', 'b'), ...on('n2', 'c'), ...on('n3', 'd', 'e')];
    assert.deepEqual(planMove(['a', 'b', 'c', 'd', 'e'], placements, nodes('n1!', 'n2', 'n3')), { index: 'a', from: 'n1!', to: 'n2' });
    assert.equal(planMove(['a', 'b'], on('n1!', 'a', 'b'), nodes('n1!')), undefined);
  });
});
