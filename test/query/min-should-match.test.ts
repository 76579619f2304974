import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveMinimumShouldMatch } from '../../src/query/min-should-match.js';

describe('minimum_should_match specs', () => {
  it('integers and negative integers', () => {
    assert.equal(resolveMinimumShouldMatch(5, 3), 3);
    assert.equal(resolveMinimumShouldMatch(5, '3'), 3);
    assert.equal(resolveMinimumShouldMatch(5, -2), 3);
    assert.equal(resolveMinimumShouldMatch(5, '-7'), 0);
    assert.equal(resolveMinimumShouldMatch(2, 5), 5);
  });

  it('percentages round down', () => {
    assert.equal(resolveMinimumShouldMatch(3, '50%'), 1);
    assert.equal(resolveMinimumShouldMatch(3, '-50%'), 2);
    assert.equal(resolveMinimumShouldMatch(7, '75%'), 5);
  });

  it('conditional specs', () => {
    assert.equal(resolveMinimumShouldMatch(2, '2<-25% 9<3'), 2);
    assert.equal(resolveMinimumShouldMatch(8, '2<-25% 9<3'), 6);
    assert.equal(resolveMinimumShouldMatch(12, '2 < -25% 9<3'), 3);
  });

  it('unreadable specs', () => {
    assert.equal(resolveMinimumShouldMatch(3, 'most'), undefined);
    assert.equal(resolveMinimumShouldMatch(3, 1.5), undefined);
    assert.equal(resolveMinimumShouldMatch(3, 'x<2'), undefined);
  });
});
