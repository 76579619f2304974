import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseQueryDsl, parseQueryString, queryToString } from '../../src/query/index.js';

describe('queryToString', () => {
  it('renders a parsed query compactly', () => {
    assert.equal(queryToString(parseQueryString('+a -b c^2 status:[1 TO 5} "x y"~1')), '(+_line:a _line:c^2 status:[1 TO 5} _line:"x y"~1 -_line:b)');
    assert.equal(queryToString(parseQueryDsl({ bool: { filter: { term: { a: 1 } }, should: [{ exists: { field: 'h' } }], minimum_should_match: 1 } })), '(_exists_:h #a:=1)~1');
  });
});
