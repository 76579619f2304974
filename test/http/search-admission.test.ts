import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ndjson, request, startTestNode, type TestNode } from '../support/node.js';

interface Answer {
  status: number;
  body: { error?: { root_cause: Array<{ type: string }>; type: string; reason: string }; status?: number; hits?: unknown };
}

describe('search admission over HTTP (SVC_QUERY_QUEUE_SIZE)', () => {
  let node: TestNode;
  before(async () => {
    // one query thread: two searches run at once, none wait
    node = await startTestNode({ SVC_QUERY_THREADS: '1', SVC_QUERY_QUEUE_SIZE: '0' });
    for (let part = 0; part < 2; part++) {
      const lines: unknown[] = [];
      for (let i = 0; i < 20_000; i++) lines.push({ index: { _index: 'busy' } }, { _line: `line ${part} ${i} word${i % 977}`, key: `k${(i * 7919) % 20_000}` });
      const res = await request(`${node.url}/_bulk`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(res.status, 200);
      await node.engine.flush(['busy']);
    }
  });
  after(async () => {
    await node.destroy();
  });

  it('answers searches past the running ones and the queue with 429 es_rejected_execution_exception, and serves again after', async () => {
    const search = async (): Promise<Answer> => {
      const res = await fetch(`${node.url}/busy/_search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: { query_string: { query: '*ord1*' } }, size: 500, sort: [{ key: 'desc' }] }),
      });
      return { status: res.status, body: (await res.json()) as Answer['body'] };
    };
    const answers = await Promise.all(Array.from({ length: 16 }, search));
    const statuses = answers.map((a) => a.status);
    assert.ok(statuses.every((s) => s === 200 || s === 429), `statuses ${statuses.join(',')}`);
    assert.ok(statuses.includes(200), 'some searches ran');
    const refused = answers.find((a) => a.status === 429);
    assert.ok(refused, `no search was refused: ${statuses.join(',')}`);
    assert.equal(refused.body.status, 429);
    assert.equal(refused.body.error!.type, 'es_rejected_execution_exception');
    assert.equal(refused.body.error!.root_cause[0]!.type, 'es_rejected_execution_exception');
    assert.match(refused.body.error!.reason, /queue capacity = 0/);

    const again = await search();
    assert.equal(again.status, 200);
    const metrics = await (await fetch(`${node.url}/metrics`)).text();
    const rejected = Number(/^svc_query_rejected_total (\d+)/m.exec(metrics)?.[1]);
    assert.equal(rejected, statuses.filter((s) => s === 429).length, 'svc_query_rejected_total counts the refusals');
  });
});
