import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ndjson, request, startTestNode, type TestNode } from '../support/node.js';

describe('hard query timeout (SVC_QUERY_TIMEOUT_SECONDS)', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ SVC_QUERY_TIMEOUT_SECONDS: '0.001', SVC_QUERY_THREADS: '1' });
    for (let part = 0; part < 2; part++) {
      const lines: unknown[] = [];
      for (let i = 0; i < 10_000; i++) lines.push({ index: { _index: 'slow' } }, { _line: `line ${part} ${i} word${i % 977}`, key: `k${(i * 7919) % 10_000}` });
      const res = await request(`${node.url}/_bulk`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(res.status, 200);
      await node.engine.flush(['slow']);
    }
  });
  after(async () => {
    await node.destroy();
  });

  it('stops a query that runs past the timeout with 504 and keeps serving', async () => {
    const res = await request<{ error: { type: string }; status: number }>(`${node.url}/slow/_search?q=line&sort=key:desc&size=1000`);
    assert.equal(res.status, 504);
    assert.equal(res.body.error.type, 'search_timeout_exception');
    const live = await request(`${node.url}/health/livez`);
    assert.equal(live.status, 200);
    const metrics = await (await fetch(`${node.url}/metrics`)).text();
    assert.match(metrics, /^svc_query_tasks_total \d+/m);
  });
});
