/**
 * The parent breaker on real memory (SVC_MEMORY_LIMIT_BYTES): above 80 % of the limit, requests
 * with a body and searches get 429 circuit_breaking_exception, as Elasticsearch's real-memory
 * parent breaker answers; probes and listings still pass. The limit here is far below what any process
 * holds, so the breaker is open from the start; a node without the setting takes the same
 * requests.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CircuitBreakingError, RealMemoryBreaker } from '../../src/common/index.js';
import { esClientNode } from '../support/es-client-node.js';

const BULK = '{"index":{"_index":"mem"}}\n{"_line":"one line"}\n';

async function post(url: string, path: string, body: string, type = 'application/json'): Promise<{ status: number; body: { error?: { type: string; reason: string }; errors?: boolean } }> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
  return { status: res.status, body: (await res.json()) as { error?: { type: string; reason: string } } };
}

describe('memory limit', () => {
  const limited = esClientNode({ SVC_MEMORY_LIMIT_BYTES: String(1024 * 1024) });
  const unlimited = esClientNode();

  it('refuses requests with a body with 429 [parent] while above the limit, and answers the others', async () => {
    const url = limited.node.url;
    const bulk = await post(url, '/_bulk', BULK, 'application/x-ndjson');
    assert.equal(bulk.status, 429);
    assert.equal(bulk.body.error?.type, 'circuit_breaking_exception');
    assert.match(bulk.body.error!.reason, /^\[parent\] Data too large, data for \[<http_request>\] would be \[\d+\/[\d.]+[kmg]?b\], which is larger than the limit of \[838860\/[\d.]+kb\]/);
    const search = await post(url, '/_search', '{"query":{"match_all":{}}}');
    assert.equal(search.status, 429);
    // a search by URL is refused when its turn comes; probes and listings pass
    const byUrl = await fetch(`${url}/_search?q=anything`);
    assert.equal(byUrl.status, 429);
    assert.equal(((await byUrl.json()) as { error: { type: string } }).error.type, 'circuit_breaking_exception');
    assert.equal((await fetch(`${url}/health/livez`)).status, 200);
    assert.equal((await fetch(`${url}/_cat/indices`)).status, 200);
    // the official client is told to retry later
    await assert.rejects(limited.client.index({ index: 'mem', body: { _line: 'x' } }), (err: { statusCode?: number }) => err.statusCode === 429);
  });

  it('takes them without the setting', async () => {
    const bulk = await post(unlimited.node.url, '/_bulk', BULK, 'application/x-ndjson');
    assert.equal(bulk.status, 200);
    assert.equal(bulk.body.errors, false);
  });

  it('opens and closes with the resident size sampled', async () => {
    let resident = 10;
    const breaker = new RealMemoryBreaker(100, () => resident, 5);
    breaker.start();
    try {
      breaker.check();
      resident = 81;
      await new Promise((r) => setTimeout(r, 30));
      assert.throws(() => breaker.check(), CircuitBreakingError);
      resident = 80;
      await new Promise((r) => setTimeout(r, 30));
      breaker.check();
    } finally {
      breaker.stop();
    }
  });
});
