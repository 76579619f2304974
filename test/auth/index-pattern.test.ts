import assert from 'node:assert/strict';
import { test } from 'node:test';
import { indexPatternProblem, matchesIndexPattern } from '../../src/auth/index.js';

test('`*` matches every index, a trailing `*` a prefix, anything else one name', () => {
  const cases: Array<[string, string, boolean]> = [
    ['*', 'logs', true],
    ['*', '.hidden', true],
    ['logs-*', 'logs-2024', true],
    ['logs-*', 'logs-', true],
    ['logs-*', 'logs', false],
    ['logs-*', 'xlogs-1', false],
    ['logs', 'logs', true],
    ['logs', 'logs-1', false],
    ['logs', 'log', false],
    ['l*', 'l', true],
  ];
  for (const [pattern, index, expected] of cases) assert.equal(matchesIndexPattern(pattern, index), expected, `${pattern} ~ ${index}`);
});

test('a `*` other than the last character is not a wildcard and is refused', () => {
  assert.match(indexPatternProblem('lo*gs') ?? '', /only as the whole pattern or as a trailing prefix wildcard/);
  assert.match(indexPatternProblem('*logs') ?? '', /trailing prefix wildcard/);
  assert.match(indexPatternProblem('**') ?? '', /trailing prefix wildcard/);
  assert.equal(matchesIndexPattern('lo*gs', 'lo*gs'), true);
});

test('empty patterns and characters no index name can hold are refused', () => {
  assert.match(indexPatternProblem('') ?? '', /must not be empty/);
  for (const bad of ['a b', 'a,b', 'a/b', 'a?', 'a"b', 'a<b', 'a|b', 'a#b', 'a:b', 'a\\b']) {
    assert.ok(indexPatternProblem(bad), bad);
  }
  assert.ok(indexPatternProblem('x'.repeat(256)));
  for (const good of ['*', 'logs', 'logs-*', 'a.b_c-1', '.kibana*']) assert.equal(indexPatternProblem(good), undefined, good);
});
