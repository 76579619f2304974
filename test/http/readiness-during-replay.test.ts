import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, it } from 'node:test';
import { exited, request, spawnNode, tempDir, waitReady, type ChildNode } from '../support/node.js';

const DOCS = 100_000;
const PER_REQUEST = 10_000;

describe('a restart with a write-ahead log to replay', () => {
  const dataDir = tempDir('svc-readiness-');
  let node: ChildNode | undefined;
  after(async () => {
    if (node) {
      node.child.kill('SIGKILL');
      await exited(node.child);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is alive and takes writes and searches at once, and ready once the replay is done', async () => {
    // memtables that never fill by size or age: everything stays in the log until the kill
    const env = { SVC_MEMTABLE_MAX_BYTES: String(1024 ** 3), SVC_MEMTABLE_MAX_AGE_SECONDS: '3600' };
    node = await spawnNode(dataDir, env);
    for (let r = 0; r < DOCS / PER_REQUEST; r++) {
      const lines: string[] = [];
      for (let d = 0; d < PER_REQUEST; d++) lines.push('{"index":{"_index":"replayed"}}', JSON.stringify({ _line: `request ${r} line ${d} user u${d % 97}`, level: 'info' }));
      const res = await fetch(`${node.url}/_bulk`, { method: 'POST', body: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
    node.child.kill('SIGKILL');
    await exited(node.child);

    node = await spawnNode(dataDir, env);
    // asked the moment it listens: 100,000 documents take far longer than this to index again
    const ready = await request<{ status: string }>(`${node.url}/health/readyz`);
    assert.equal(ready.status, 503);
    assert.equal(ready.body.status, 'recovering');
    assert.equal((await request(`${node.url}/health/livez`)).status, 200);
    assert.equal((await request(`${node.url}/replayed/_count`)).status, 200, 'searches are answered during the replay');
    const written = await request<{ errors: boolean }>(`${node.url}/_bulk`, {
      body: '{"index":{"_index":"replayed"}}\n{"_line":"written during the replay"}\n',
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(written.status, 200);
    assert.equal(written.body.errors, false);

    await waitReady(node.url);
    assert.equal((await request<{ status: string }>(`${node.url}/health/readyz`)).body.status, 'ready');
    assert.equal((await request<{ count: number }>(`${node.url}/replayed/_count`)).body.count, DOCS + 1);
  });
});
