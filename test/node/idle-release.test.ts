import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

interface SearchBody {
  hits: { total: { value: number } };
}

describe('idle index release', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ SVC_IDLE_INDEX_SECONDS: '1' });
  });
  after(async () => {
    await node.destroy();
  });

  it('flushes and closes an idle index, and reopens it on the next search', async () => {
    assert.equal((await bulkIndex(node.url, 'quiet', [{ _line: 'first quiet line' }, { _line: 'second quiet line' }])).status, 200);
    const shard = node.engine.shard('quiet')!;
    assert.equal(shard.holdsOnlySegments, false, 'documents start in the memtable');

    const deadline = Date.now() + 10_000;
    while ((shard.openSegmentFiles > 0 || !shard.holdsOnlySegments || shard.segmentRecords().length === 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(shard.holdsOnlySegments, true, 'the idle memtable was flushed');
    assert.equal(shard.segmentRecords().length, 1);
    assert.equal(shard.openSegmentFiles, 0, 'segment files were closed');

    const res = await request<SearchBody>(`${node.url}/quiet/_search?q=quiet`);
    assert.equal(res.body.hits.total.value, 2);
    assert.equal(shard.openSegmentFiles, 1, 'the search reopened the segment file');
  });

  it('keeps an index in use open', async () => {
    assert.equal((await bulkIndex(node.url, 'busy', [{ _line: 'busy line' }])).status, 200);
    const shard = node.engine.shard('busy')!;
    for (let i = 0; i < 8; i++) {
      await request(`${node.url}/busy/_search?q=busy`);
      await new Promise((r) => setTimeout(r, 150));
    }
    assert.equal(shard.holdsOnlySegments, false, 'an index searched every 150 ms is not idle');
  });
});
