import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WriteOutcome } from '../../src/engine/index.js';
import { BulkResponseWriter } from '../../src/http/bulk/bulk-response.js';
import { writeStatus, writtenFields } from '../../src/http/bulk/written-fields.js';

type Written = Extract<WriteOutcome, { ok: true }>;

/** What an item is, parsed the slow way: from the document APIs' text of the same outcome. */
function expectedItem(action: string, outcome: Written): unknown {
  return { [action]: { ...(JSON.parse(`{${writtenFields(outcome)}}`) as object), status: writeStatus(outcome.result) } };
}

describe('bulk answer', () => {
  it('writes every item as the document APIs word it, in order, across indexes, actions, results and ids that need escapes', () => {
    const outcomes: Array<[string, Written]> = [];
    const ids = ['7200000000000000037', 'a"quoted"id', 'back\\slash', 'ünïcødé-日本', 'tab\tand\u0001control', ''];
    const results = ['created', 'updated', 'deleted', 'not_found', 'noop'] as const;
    for (let i = 0; i < 3_000; i++) {
      const action = ['index', 'create', 'update', 'delete'][Math.floor(i / 700) % 4]!;
      outcomes.push([action, { ok: true, index: i % 1000 < 500 ? 'logs-a' : 'lögs-ß', id: ids[i % ids.length]!, lid: i * 97, version: 1 + (i % 5), result: results[Math.floor(i / 11) % results.length]! }]);
    }
    // a small first guess: the buffer grows
    const writer = new BulkResponseWriter(10);
    const expected: unknown[] = [];
    outcomes.forEach(([action, outcome], i) => {
      if (i % 250 === 3) {
        const failure = { [action]: { _index: outcome.index, _type: '_doc', _id: null, status: 400, error: { type: 'x', reason: 'bad "doc"' } } };
        writer.text(JSON.stringify(failure));
        expected.push(failure);
      }
      writer.written(action as 'index', outcome);
      expected.push(expectedItem(action, outcome));
    });
    const answer = JSON.parse(writer.finish(42, true).toString('utf8')) as { took: number; errors: boolean; items: unknown[] };
    assert.equal(answer.took, 42);
    assert.equal(answer.errors, true);
    assert.equal(answer.items.length, expected.length);
    answer.items.forEach((item, i) => assert.deepEqual(item, expected[i], `item ${i}`));
  });

  it('writes an answer of one item and one of none', () => {
    const one = new BulkResponseWriter(1);
    const outcome: Written = { ok: true, index: 'i', id: '1', lid: 1, version: 1, result: 'created' };
    one.written('index', outcome);
    assert.deepEqual(JSON.parse(one.finish(0, false).toString()), { took: 0, errors: false, items: [expectedItem('index', outcome)] });
    assert.deepEqual(JSON.parse(new BulkResponseWriter(0).finish(1, false).toString()), { took: 1, errors: false, items: [] });
  });
});
