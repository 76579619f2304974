import assert from 'node:assert/strict';
import { ParsingError } from '../../src/common/errors.js';
import type { BoolQuery, MatchQuery, Query } from '../../src/query/index.js';

export function m(text: string, field = '_line', operator: 'or' | 'and' = 'or'): MatchQuery {
  return { kind: 'match', field, text, operator };
}

export function bool(parts: Partial<Pick<BoolQuery, 'must' | 'should' | 'mustNot' | 'filter'>>, extra: Partial<BoolQuery> = {}): BoolQuery {
  return { kind: 'bool', must: [], should: [], mustNot: [], filter: [], ...parts, ...extra };
}

/** Asserts that `fn` throws a ParsingError of `type` whose reason matches `reason`. */
export function assertParsingError(fn: () => unknown, type: string, reason: string | RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ParsingError, `expected ParsingError, got ${String(e)}`);
    assert.equal(e.type, type);
    assert.equal(e.status, 400);
    if (typeof reason === 'string') assert.equal(e.reason, reason);
    else assert.match(e.reason, reason);
    return true;
  });
}

export type { Query };
