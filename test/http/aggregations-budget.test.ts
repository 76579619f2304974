/**
 * Aggregation memory is strictly bounded: a terms aggregation over a million distinct values on
 * a node started with SVC_AGGREGATION_MEMORY_BYTES=16 MiB fails with a 429
 * circuit_breaking_exception, the process grows by no more than the budget plus the documented
 * slack (docs/aggregations.md), and the node goes on answering.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Config } from '../../src/config/index.js';
import { aggregationService } from '../../src/http/aggregations/index.js';
import { request, startTestNode, type TestNode } from '../support/node.js';

const BUDGET = 16 * 1024 * 1024;
/** docs/aggregations.md: matched doc ids before they are charged, V8 heap growth and garbage */
const SLACK = 32 * 1024 * 1024;
const DOCS = 1_000_000;
const BATCH = 100_000;

interface ErrorBody {
  error: { type: string; reason: string; bytes_limit?: number };
  status: number;
}

describe('aggregation memory budget', () => {
  let node: TestNode;

  before(async () => {
    node = await startTestNode({ SVC_AGGREGATION_MEMORY_BYTES: String(BUDGET) });
    for (let start = 0; start < DOCS; start += BATCH) {
      const parts: string[] = [];
      for (let i = start; i < start + BATCH; i++) parts.push(`{"index":{}}\n{"user":"${i.toString(36)}","n":${i % 100}}\n`);
      const res = await fetch(`${node.url}/users/_bulk`, { method: 'POST', body: parts.join(''), headers: { 'content-type': 'application/x-ndjson' } });
      const text = await res.text();
      assert.equal(res.status, 200);
      assert.ok(!text.includes('"errors":true'), text.slice(0, 300));
    }
    // load the keyword column once, as any earlier aggregation on the field would: its decoded
    // column belongs to the segment, not to the aggregation being measured
    assert.equal((await request(`${node.url}/users/_search`, { body: { size: 0, aggs: { warm: { value_count: { field: 'user' } } } } })).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it('a terms aggregation over a million distinct values fails with a 429 within budget + slack, and the node still answers', async () => {
    const body = { size: 0, aggs: { users: { terms: { field: 'user', size: 10 } } } };
    const start = process.memoryUsage().rss;
    for (let attempt = 0; attempt < 3; attempt++) {
      const before = process.memoryUsage().rss;
      const res = await request<ErrorBody>(`${node.url}/users/_search`, { body });
      const grown = process.memoryUsage().rss - before;
      assert.equal(res.status, 429, JSON.stringify(res.body).slice(0, 300));
      assert.equal(res.body.error.type, 'circuit_breaking_exception');
      assert.match(res.body.error.reason, /Data too large, data for \[users\]/);
      assert.equal(res.body.error.bytes_limit, BUDGET);
      assert.ok(grown <= BUDGET + SLACK, `attempt ${attempt}: rss grew by ${(grown / 2 ** 20).toFixed(1)} MiB`);
    }
    assert.ok(process.memoryUsage().rss - start <= BUDGET + SLACK, 'repeated refusals do not pile up');

    const service = aggregationService({ config: { aggregationMemoryBytes: BUDGET, maxBuckets: 65535 } as Config, metrics: node.metrics });
    assert.ok(service.breaker.peakBytes <= BUDGET, `charged at most the budget: ${service.breaker.peakBytes}`);
    assert.equal(service.breaker.used, service.cache.bytes, 'the refused requests gave their memory back');

    const ok = await request<{ hits: { total: { value: number } }; aggregations: Record<string, { value?: number; buckets?: unknown[] }> }>(`${node.url}/users/_search`, {
      body: { size: 0, track_total_hits: true, aggs: { n: { terms: { field: 'n', size: 3 } }, distinct: { cardinality: { field: 'user' } } } },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.hits.total.value, DOCS);
    assert.deepEqual(ok.body.aggregations.n!.buckets, [
      { key: 0, doc_count: 10_000 },
      { key: 1, doc_count: 10_000 },
      { key: 2, doc_count: 10_000 },
    ]);
    // HyperLogLog at precision 14: within 3 standard errors (2.4%)
    assert.ok(Math.abs(ok.body.aggregations.distinct!.value! - DOCS) / DOCS < 0.025);
    const hits = await request<{ hits: { hits: unknown[] } }>(`${node.url}/users/_search?q=user:${(123_456).toString(36)}`);
    assert.equal(hits.status, 200);
    assert.equal(hits.body.hits.hits.length, 1);
  });
});
