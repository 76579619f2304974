/**
 * SVC_READER_CACHE_BYTES: with a budget far below what the readers would keep (1 MiB for four
 * segments of 10,000 documents, searched by the main thread and two query threads), entries are
 * evicted and refused all along, and every answer is the same as with the default budget.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Client } from '@elastic/elasticsearch';
import { loadConfig } from '../../src/config/index.js';
import { startNode, type RunningNode } from '../../src/node/index.js';
import type { ReaderCacheBudget } from '../../src/engine/index.js';
import { tempDir } from '../support/node.js';

const INDEX = 'budget';
const BATCHES = 4;
const PER_BATCH = 10_000;

const SEARCHES: ReadonlyArray<Record<string, unknown>> = [
  { query: { match: { _line: 'items' } }, size: 20, sort: [{ latency_ms: 'desc' }, { request_id: 'asc' }] },
  { query: { query_string: { query: 'user:u7 AND latency_ms:[100 TO 300]' } }, size: 50, sort: [{ request_id: 'asc' }] },
  { query: { match_phrase: { _line: 'took 5 ms' } }, size: 30, sort: [{ request_id: 'desc' }], track_total_hits: true },
  { query: { wildcard: { request_id: '2-1*' } }, size: 40, sort: [{ request_id: 'asc' }], track_total_hits: true },
  { query: { bool: { filter: [{ range: { latency_ms: { gte: 250, lt: 260 } } }], must_not: [{ term: { user: 'u3' } }] } }, from: 100, size: 50, sort: [{ request_id: 'asc' }], track_total_hits: true },
  { query: { exists: { field: 'extra' } }, size: 10, sort: [{ extra: 'asc' }, { request_id: 'asc' }], track_total_hits: true },
  { query: { ids: { values: ['0-5', '1-9999', '3-4242', 'nope'] } }, size: 10, sort: [{ request_id: 'asc' }] },
  { query: { match_all: {} }, from: 5_000, size: 100, sort: [{ latency_ms: 'asc' }, { request_id: 'asc' }], track_total_hits: true },
  { query: { match: { _line: 'took' } }, size: 10 },
  {
    size: 0,
    aggs: {
      users: { terms: { field: 'user', size: 50 }, aggs: { avg: { avg: { field: 'latency_ms' } } } },
      ids: { cardinality: { field: 'request_id' } },
      p: { percentiles: { field: 'latency_ms' } },
      h: { histogram: { field: 'latency_ms', interval: 100 } },
    },
  },
];

function doc(batch: number, d: number): Record<string, unknown> {
  const id = `${batch}-${d}`;
  return {
    _line: `GET /api/items/${id} user u${d % 97} took ${d % 300} ms`,
    request_id: id,
    user: `u${(d * 31) % 97}`,
    latency_ms: (d * 7) % 1_000,
    ...(d % 5 === 0 ? { extra: `e${(d * 13) % 101}` } : {}),
  };
}

async function start(dataDir: string, readerCacheBytes?: number): Promise<RunningNode & { readerCache: ReaderCacheBudget }> {
  const env: Record<string, string> = { SVC_PORT: '0', SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: 'silent', SVC_QUERY_THREADS: '2' };
  if (readerCacheBytes !== undefined) env.SVC_READER_CACHE_BYTES = String(readerCacheBytes);
  const node = await startNode(loadConfig(env));
  const { readerCache } = node;
  if (readerCache === undefined) throw new Error('a node with every role has a reader cache');
  return { ...node, readerCache };
}

async function answers(client: Client): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const body of SEARCHES) {
    const { body: res } = await client.search({ index: INDEX, body });
    delete (res as { took?: number }).took;
    out.push(res);
  }
  const { body: count } = await client.count({ index: INDEX, body: { query: { term: { user: 'u11' } } } });
  out.push(count);
  const { body: got } = await client.mget({ index: INDEX, body: { ids: ['0-1', '2-777', '3-9999'] } });
  out.push(got);
  return out;
}

describe('reader cache budget (SVC_READER_CACHE_BYTES)', () => {
  const dataDir = tempDir('svc-reader-cache-');
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  let tiny: { cold: unknown[]; warm: unknown[]; usedBytes: number; limitBytes: number };

  before(async () => {
    const node = await start(dataDir, 1024 * 1024);
    try {
      const client = new Client({ node: node.url });
      await client.indices.create({ index: INDEX, body: { mappings: { properties: { request_id: { type: 'keyword' }, user: { type: 'keyword' }, latency_ms: { type: 'long' }, extra: { type: 'keyword' } } } } });
      for (let b = 0; b < BATCHES; b++) {
        const body: Array<Record<string, unknown>> = [];
        for (let d = 0; d < PER_BATCH; d++) body.push({ index: { _index: INDEX, _id: `${b}-${d}` } }, doc(b, d));
        const { body: res } = await client.bulk({ body });
        assert.equal(res.errors, false);
        await client.indices.flush({ index: INDEX });
      }
      const cold = await answers(client);
      const warm = await answers(client);
      const budget = node.readerCache;
      tiny = { cold, warm, usedBytes: budget.usedBytes, limitBytes: budget.limitBytes };
      await client.close();
    } finally {
      await node.close();
    }
  });

  it('answers every search the same under a 1 MiB budget as under the default one, cold and warm', async () => {
    assert.equal(tiny.limitBytes, 1024 * 1024);
    assert.ok(tiny.usedBytes <= tiny.limitBytes, `readers hold ${tiny.usedBytes} bytes`);
    const node = await start(dataDir);
    try {
      const client = new Client({ node: node.url });
      const reference = await answers(client);
      await client.close();
      const total = (reference[0] as { hits: { total: { value: number } } }).hits.total.value;
      assert.ok(total > 0, 'the searches find documents');
      for (let i = 0; i < reference.length; i++) {
        assert.deepEqual(tiny.cold[i], reference[i], `answer ${i} under the tiny budget (cold)`);
        assert.deepEqual(tiny.warm[i], reference[i], `answer ${i} under the tiny budget (warm)`);
      }
      assert.ok(node.readerCache.usedBytes > tiny.limitBytes, 'the default budget keeps more than the tiny one could');
    } finally {
      await node.close();
    }
  });
});
