/** The official @elastic/elasticsearch 7.x client's indices.*, cat.* and cluster.* calls against a real node. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { esClientNode } from '../support/es-client-node.js';

interface ClientError {
  meta: { statusCode: number; body: { error: { type: string } } };
}

describe('official client: indices, cat, cluster', () => {
  const es = esClientNode();

  it('indices.create, exists, getSettings, delete', async () => {
    const created = await es.client.indices.create({
      index: 'client-a',
      body: { settings: { number_of_shards: 1 }, mappings: { properties: { level: { type: 'keyword' } } } },
    });
    assert.equal(created.body.acknowledged, true);
    assert.equal(created.body.index, 'client-a');
    assert.equal((await es.client.indices.exists({ index: 'client-a' })).body, true);
    assert.equal((await es.client.indices.exists({ index: 'client-zzz' })).body, false);
    await assert.rejects(es.client.indices.create({ index: 'client-a' }), (err: ClientError) => err.meta.body.error.type === 'resource_already_exists_exception');

    const settings = await es.client.indices.getSettings({ index: 'client-a' });
    assert.equal(settings.body['client-a'].settings.index.number_of_shards, '1');
    const named = await es.client.indices.getSettings({ index: 'client-a', name: 'index.uuid' });
    assert.deepEqual(Object.keys(named.body['client-a'].settings.index), ['uuid']);

    assert.equal((await es.client.indices.delete({ index: 'client-a' })).body.acknowledged, true);
    assert.equal((await es.client.indices.exists({ index: 'client-a' })).body, false);
    await assert.rejects(es.client.indices.delete({ index: 'client-a' }), (err: ClientError) => err.meta.statusCode === 404);
  });

  it('indices.putMapping, getMapping, stats, flush', async () => {
    await es.client.indices.create({ index: 'client-b' });
    assert.equal((await es.client.indices.putMapping({ index: 'client-b', body: { properties: { took_ms: { type: 'long' }, path: { type: 'keyword' } } } })).body.acknowledged, true);
    await es.client.bulk({ refresh: true, body: [{ index: { _index: 'client-b' } }, { took_ms: 5, path: '/a' }, { index: { _index: 'client-b' } }, { took_ms: 7, path: '/b' }] });
    const mapping = await es.client.indices.getMapping({ index: 'client-b' });
    assert.deepEqual(mapping.body['client-b'].mappings.properties.took_ms, { type: 'long' });
    await assert.rejects(
      es.client.indices.putMapping({ index: 'client-b', body: { properties: { path: { type: 'long' } } } }),
      (err: ClientError) => err.meta.statusCode === 400 && err.meta.body.error.type === 'illegal_argument_exception',
    );

    const flushed = await es.client.indices.flush({ index: 'client-b' });
    assert.deepEqual(flushed.body._shards, { total: 1, successful: 1, failed: 0 });
    const stats = await es.client.indices.stats({ index: 'client-b' });
    assert.equal(stats.body._all.primaries.docs.count, 2);
    assert.ok(stats.body._all.primaries.store.size_in_bytes > 0);
    const docsOnly = await es.client.indices.stats({ index: 'client-b', metric: 'docs' });
    assert.equal(docsOnly.body.indices['client-b'].primaries.docs.count, 2);
  });

  it('indices.putAlias, getAlias, existsAlias, updateAliases', async () => {
    await es.client.indices.create({ index: 'client-c' });
    assert.equal((await es.client.indices.putAlias({ index: 'client-c', name: 'client-current', body: { is_write_index: true } })).body.acknowledged, true);
    const alias = await es.client.indices.getAlias({ name: 'client-current' });
    assert.deepEqual(alias.body, { 'client-c': { aliases: { 'client-current': { is_write_index: true } } } });
    assert.equal((await es.client.indices.existsAlias({ name: 'client-current' })).body, true);
    assert.equal((await es.client.indices.existsAlias({ name: 'client-none' })).body, false);

    const updated = await es.client.indices.updateAliases({
      body: { actions: [{ remove: { index: 'client-c', alias: 'client-current' } }, { add: { index: 'client-c', alias: 'client-next' } }] },
    });
    assert.equal(updated.body.acknowledged, true);
    assert.deepEqual(Object.keys((await es.client.indices.getAlias({ index: 'client-c' })).body['client-c'].aliases), ['client-next']);
    await assert.rejects(es.client.indices.getAlias({ name: 'client-current' }), (err: ClientError) => err.meta.statusCode === 404);
    await es.client.bulk({ body: [{ index: { _index: 'client-next' } }, { msg: 'through the alias' }] });
    assert.equal((await es.client.count({ index: 'client-next' })).body.count, 1);
  });

  it('indices.putTemplate, existsTemplate, getTemplate, deleteTemplate', async () => {
    assert.equal((await es.client.indices.existsTemplate({ name: 'client-tpl' })).body, false);
    const put = await es.client.indices.putTemplate({
      name: 'client-tpl',
      body: { index_patterns: ['client-t-*'], order: 1, mappings: { properties: { code: { type: 'keyword' } } } },
    });
    assert.equal(put.body.acknowledged, true);
    assert.equal((await es.client.indices.existsTemplate({ name: 'client-tpl' })).body, true);
    const got = await es.client.indices.getTemplate({ name: 'client-tpl' });
    assert.deepEqual(got.body['client-tpl'].index_patterns, ['client-t-*']);
    await es.client.bulk({ body: [{ index: { _index: 'client-t-1' } }, { code: 200 }] });
    const mapping = await es.client.indices.getMapping({ index: 'client-t-1' });
    assert.equal(mapping.body['client-t-1'].mappings.properties.code.type, 'keyword');
    assert.equal((await es.client.indices.deleteTemplate({ name: 'client-tpl' })).body.acknowledged, true);
    assert.equal((await es.client.indices.existsTemplate({ name: 'client-tpl' })).body, false);
  });

  it('cat.indices, cat.nodes, cluster.health, cluster.getSettings', async () => {
    const indices = await es.client.cat.indices({ format: 'json', index: 'client-b' });
    assert.equal(indices.body[0].index, 'client-b');
    assert.equal(indices.body[0]['docs.count'], '2');
    assert.equal(indices.body[0].health, 'green');
    const text = await es.client.cat.indices({ v: true, h: ['index', 'docs.count'], s: 'index' });
    assert.match(String(text.body), /^index +docs.count\n/);
    const nodes = await es.client.cat.nodes({ format: 'json' });
    assert.equal(nodes.body.length, 1);
    assert.equal(nodes.body[0].master, '*');
    const health = await es.client.cluster.health({ wait_for_status: 'yellow', timeout: '5s' });
    assert.equal(health.body.status, 'green');
    const indexHealth = await es.client.cluster.health({ index: 'client-b' });
    assert.equal(indexHealth.body.status, 'green');
    const settings = await es.client.cluster.getSettings();
    assert.deepEqual(settings.body, { persistent: {}, transient: {} });
  });
});
