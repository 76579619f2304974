import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

interface Answer {
  hits: { total: { value: number }; hits: Array<{ _source: { level: string } }> };
  aggregations: { levels: { buckets: Array<{ key: string; doc_count: number }> } };
}

describe('post_filter', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
    const docs = [
      { _line: 'a', level: 'info' },
      { _line: 'b', level: 'info' },
      { _line: 'c', level: 'warn' },
      { _line: 'd', level: 'error' },
    ];
    assert.equal((await bulkIndex(node.url, 'pf', docs)).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it('narrows the hits but not the aggregations, as in Elasticsearch', async () => {
    const res = await request<Answer>(`${node.url}/pf/_search`, {
      body: { query: { match_all: {} }, post_filter: { term: { level: 'info' } }, aggs: { levels: { terms: { field: 'level' } } } },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.hits.total.value, 2);
    assert.deepEqual(res.body.hits.hits.map((h) => h._source.level), ['info', 'info']);
    assert.deepEqual(
      res.body.aggregations.levels.buckets.map((b) => [b.key, b.doc_count]),
      [['info', 2], ['error', 1], ['warn', 1]],
    );
  });
});
