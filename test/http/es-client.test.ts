import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { esClientNode } from '../support/es-client-node.js';

describe('official @elastic/elasticsearch client', () => {
  const es = esClientNode();

  it('passes the product check and reads the server info', async () => {
    const info = await es.client.info();
    assert.equal(info.body.version.number, '7.10.2');
  });

  it('writes with the bulk helper and finds the documents again', async () => {
    const docs = Array.from({ length: 2500 }, (_, i) => ({
      _line: `client line ${i} ${i % 10 === 0 ? 'tenth' : 'plain'}`,
      n: i,
      kind: i % 2 === 0 ? 'even' : 'odd',
    }));
    const stats = await es.client.helpers.bulk({
      datasource: docs,
      onDocument: () => ({ index: { _index: 'client-logs' } }),
      flushBytes: 50_000,
    });
    assert.equal(stats.total, 2500);
    assert.equal(stats.successful, 2500);
    assert.equal(stats.failed, 0);

    const tenth = await es.client.search({ index: 'client-logs', q: 'tenth', size: 5 });
    assert.equal(tenth.body.hits.total.value, 250);
    assert.equal(tenth.body.hits.hits.length, 5);
    const even = await es.client.search({ index: 'client-logs', q: 'kind:even AND n:<100', size: 100, sort: ['n:asc'] });
    assert.equal(even.body.hits.total.value, 50);
    assert.deepEqual(
      even.body.hits.hits.map((h: { _source: { n: number } }) => h._source.n),
      Array.from({ length: 50 }, (_, i) => i * 2),
    );
  });

  it('surfaces server errors as ResponseError with the ES error body', async () => {
    await assert.rejects(es.client.search({ index: 'missing-index', q: 'x' }), (err: { meta: { statusCode: number; body: { error: { type: string } } } }) => {
      assert.equal(err.meta.statusCode, 404);
      assert.equal(err.meta.body.error.type, 'index_not_found_exception');
      return true;
    });
  });
});
