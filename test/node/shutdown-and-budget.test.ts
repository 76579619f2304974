import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { bulkIndex, ndjson, request, startTestNode, tempDir } from '../support/node.js';

interface ErrorBody {
  error: { type: string; reason: string };
  status: number;
}

describe('write budget (SVC_STORAGE_MAX_PENDING_BYTES)', () => {
  it('answers 429 while unflushed bytes exceed the budget, and accepts writes again after a flush', async () => {
    const node = await startTestNode({ SVC_STORAGE_MAX_PENDING_BYTES: '3000' });
    try {
      const docs = Array.from({ length: 50 }, (_, i) => ({ _line: `budget line ${i} ${'x'.repeat(50)}` }));
      assert.equal((await bulkIndex(node.url, 'budget', docs)).status, 200);
      const refused = await bulkIndex(node.url, 'budget', docs);
      assert.equal(refused.status, 429);
      const body = refused.body as unknown as ErrorBody;
      assert.equal(body.status, 429);
      assert.equal(body.error.type, 'es_rejected_execution_exception');
      assert.match(body.error.reason, /retry/);
      // nothing of the refused request was stored
      assert.equal((await request<{ count: number }>(`${node.url}/budget/_count`)).body.count, 50);

      assert.equal((await request(`${node.url}/budget/_flush`, { method: 'POST' })).status, 200);
      assert.equal((await bulkIndex(node.url, 'budget', docs)).status, 200);
      assert.equal((await request<{ count: number }>(`${node.url}/budget/_count`)).body.count, 100);
    } finally {
      await node.destroy();
    }
  });
});

describe('unflushed log cap (SVC_WAL_MAX_UNFLUSHED_BYTES)', () => {
  it('flushes early past 3/4 of the cap, answers 429 past the cap until that flush is done, then takes writes again', async () => {
    // memtables that never fill by size or age: only the cap can start this flush
    const node = await startTestNode({ SVC_WAL_MAX_UNFLUSHED_BYTES: String(1024 * 1024), SVC_MEMTABLE_MAX_AGE_SECONDS: '3600' });
    try {
      const docs = Array.from({ length: 20_000 }, (_, i) => ({ _line: `capped line ${i} ${'y'.repeat(150)}` }));
      assert.equal((await bulkIndex(node.url, 'capped', docs)).status, 200);
      // the flush of ~4 MB of documents runs on the flush thread for far longer than one request
      const refused = await bulkIndex(node.url, 'capped', docs.slice(0, 10));
      assert.equal(refused.status, 429);
      assert.match((refused.body as unknown as ErrorBody).error.reason, /SVC_WAL_MAX_UNFLUSHED_BYTES/);

      const shard = node.engine.shard('capped')!;
      const deadline = Date.now() + 30_000;
      while (node.engine.pendingStorageBytes() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(shard.segmentRecords().length, 1, 'a segment was committed without a _flush');
      assert.equal((await bulkIndex(node.url, 'capped', docs.slice(0, 10))).status, 200);
      assert.equal((await request<{ count: number }>(`${node.url}/capped/_count`)).body.count, 20_010);
    } finally {
      await node.destroy();
    }
  });
});

describe('graceful shutdown', () => {
  it('drains requests in flight, keeps liveness up, refuses new work, and flushes everything', async () => {
    const dataDir = tempDir();
    const node = await startTestNode({ SVC_SHUTDOWN_TIMEOUT_SECONDS: '20' }, dataDir);
    assert.equal((await bulkIndex(node.url, 'drain', [{ _line: 'before shutdown' }])).status, 200);

    // a bulk request whose body is still arriving when the shutdown begins
    const url = new URL(`${node.url}/_bulk`);
    const slow = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/x-ndjson' } });
    const slowAnswer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      slow.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      slow.on('error', reject);
    });
    slow.write(JSON.stringify({ index: { _index: 'drain' } }) + '\n');
    slow.flushHeaders();
    await new Promise((r) => setTimeout(r, 100));

    const closing = node.close();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await request(`${node.url}/health/livez`)).status, 200, 'liveness stays up');
    assert.equal((await request(`${node.url}/health/readyz`)).status, 503, 'readiness goes down');
    const refused = await request<ErrorBody>(`${node.url}/drain/_search`);
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error.type, 'service_unavailable_exception');

    slow.end(ndjson([{ _line: 'in flight during shutdown' }]));
    const answer = await slowAnswer;
    assert.equal(answer.status, 200, 'the request in flight completed');
    assert.equal((JSON.parse(answer.body) as { errors: boolean }).errors, false);
    await closing;

    // every memtable was flushed: the documents are in segment files and the WAL holds nothing
    const walBytes = fs.readdirSync(path.join(dataDir, 'wal')).reduce((n, f) => n + fs.statSync(path.join(dataDir, 'wal', f)).size, 0);
    assert.ok(walBytes <= 64, `WAL holds ${walBytes} bytes after a clean shutdown`);
    const again = await startTestNode({}, dataDir);
    try {
      assert.equal((await request<{ count: number }>(`${again.url}/drain/_count`)).body.count, 2);
      assert.ok(again.engine.shard('drain')!.segmentRecords().length >= 1);
    } finally {
      await again.destroy();
    }
  });
});
