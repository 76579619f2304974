import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errors } from '@elastic/elasticsearch';
import { esClientNode } from '../support/es-client-node.js';

describe('official client: documents by _id', () => {
  const es = esClientNode();

  it('index, get, exists, update, delete and mget', async () => {
    const created = await es.client.index({ index: 'client-ids', id: 'user-1', body: { _line: 'alice signed up', plan: 'free' } });
    assert.equal(created.statusCode, 201);
    assert.equal(created.body.result, 'created');
    const replaced = await es.client.index({ index: 'client-ids', id: 'user-1', body: { _line: 'alice upgraded', plan: 'pro' } });
    assert.equal(replaced.body.result, 'updated');
    assert.equal(replaced.body._version, 2);

    const got = await es.client.get({ index: 'client-ids', id: 'user-1' });
    assert.equal(got.body.found, true);
    assert.equal(got.body._source.plan, 'pro');
    assert.equal((await es.client.exists({ index: 'client-ids', id: 'user-1' })).body, true);
    assert.equal((await es.client.exists({ index: 'client-ids', id: 'user-2' })).body, false);

    const updated = await es.client.update({ index: 'client-ids', id: 'user-1', body: { doc: { plan: 'team' } } });
    assert.equal(updated.body.result, 'updated');
    assert.equal(updated.body._version, 3);
    await assert.rejects(
      es.client.create({ index: 'client-ids', id: 'user-1', body: { _line: 'again' } }),
      (err: unknown) => err instanceof errors.ResponseError && err.statusCode === 409,
    );

    const mget = await es.client.mget({ index: 'client-ids', body: { ids: ['user-1', 'user-2'] } });
    assert.deepEqual(
      mget.body.docs.map((d: { _id: string; found: boolean }) => [d._id, d.found]),
      [
        ['user-1', true],
        ['user-2', false],
      ],
    );
    assert.equal(mget.body.docs[0]._source.plan, 'team');

    const deleted = await es.client.delete({ index: 'client-ids', id: 'user-1' });
    assert.equal(deleted.body.result, 'deleted');
    await assert.rejects(
      es.client.get({ index: 'client-ids', id: 'user-1' }),
      (err: unknown) => err instanceof errors.ResponseError && err.statusCode === 404,
    );
    const search = await es.client.search({ index: 'client-ids', body: { query: { match_all: {} } } });
    assert.equal(search.body.hits.total.value, 0);
  });

  it('bulk with ids, and the bulk helper sending the same documents twice, keep one copy of each', async () => {
    const res = await es.client.bulk({
      body: [
        { index: { _index: 'client-bulk', _id: 'a' } },
        { _line: 'first a' },
        { create: { _index: 'client-bulk', _id: 'a' } },
        { _line: 'second a' },
        { delete: { _index: 'client-bulk', _id: 'missing' } },
      ],
    });
    assert.equal(res.body.errors, true);
    assert.deepEqual(
      res.body.items.map((it: Record<string, { status: number }>) => Object.values(it)[0]!.status),
      [201, 409, 404],
    );

    const docs = Array.from({ length: 1200 }, (_, i) => ({ key: `k-${i}`, _line: `helper line ${i}` }));
    for (let round = 0; round < 2; round++) {
      const stats = await es.client.helpers.bulk({
        datasource: docs,
        onDocument: (doc: { key: string }) => ({ index: { _index: 'client-bulk', _id: doc.key } }),
        flushBytes: 20_000,
        retries: 3,
      });
      assert.equal(stats.successful, 1200);
      assert.equal(stats.failed, 0);
    }
    const count = await es.client.count({ index: 'client-bulk' });
    assert.equal(count.body.count, 1201);
    const one = await es.client.get({ index: 'client-bulk', id: 'k-7' });
    assert.equal(one.body._version, 2);
  });
});
