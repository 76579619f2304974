/** PUT, HEAD, GET and DELETE /{index}, _flush and _refresh on a real node. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bulkIndex, exited, request, spawnNode, startTestNode, tempDir, type TestNode, waitReady } from '../support/node.js';

interface ErrorBody {
  error: { type: string; reason: string; [k: string]: unknown };
  status: number;
}
type IndexView = Record<string, { aliases: Record<string, unknown>; mappings: Record<string, unknown>; settings: { index: Record<string, unknown> } }>;

const json = (body: unknown) => ({ body: body as object, headers: { 'content-type': 'application/json' } });

describe('index lifecycle', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(async () => {
    await node.destroy();
  });

  it('PUT creates an index with settings, mappings and aliases', async () => {
    const res = await request(`${node.url}/orders`, {
      method: 'PUT',
      ...json({
        settings: { number_of_shards: 1, index: { refresh_interval: '5s' } },
        mappings: { properties: { customer: { properties: { id: { type: 'integer' } } }, note: { type: 'text' }, placed: { type: 'date' } } },
        aliases: { 'orders-all': {}, 'orders-write': { is_write_index: true } },
      }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { acknowledged: true, shards_acknowledged: true, index: 'orders' });

    const view = await request<IndexView>(`${node.url}/orders`);
    assert.equal(view.status, 200);
    const orders = view.body.orders!;
    assert.deepEqual(orders.aliases, { 'orders-all': {}, 'orders-write': { is_write_index: true } });
    assert.deepEqual(orders.mappings, {
      properties: { customer: { properties: { id: { type: 'long' } } }, note: { type: 'text' }, placed: { type: 'date' } },
    });
    assert.equal(orders.settings.index.refresh_interval, '5s');
    assert.equal(orders.settings.index.number_of_shards, '1');
    assert.equal(orders.settings.index.provided_name, 'orders');
  });

  it('PUT on an existing index is a 400 resource_already_exists_exception', async () => {
    await request(`${node.url}/twice`, { method: 'PUT' });
    const res = await request<ErrorBody>(`${node.url}/twice`, { method: 'PUT' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.type, 'resource_already_exists_exception');
    assert.match(res.body.error.reason, /^index \[twice\/[0-9a-f-]+\] already exists$/);
    assert.equal(res.body.error.index, 'twice');
  });

  it('PUT refuses bad names, unknown body keys, unsupported field types and alias clashes, creating nothing', async () => {
    const bad = await request<ErrorBody>(`${node.url}/UPPER`, { method: 'PUT' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.type, 'invalid_index_name_exception');

    const unknown = await request<ErrorBody>(`${node.url}/unknown-key`, { method: 'PUT', ...json({ setings: {} }) });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.type, 'parse_exception');

    const geo = await request<ErrorBody>(`${node.url}/geo`, { method: 'PUT', ...json({ mappings: { properties: { where: { type: 'geo_point' } } } }) });
    assert.equal(geo.status, 400);
    assert.equal(geo.body.error.type, 'mapper_parsing_exception');
    assert.equal(geo.body.error.reason, 'No handler for type [geo_point] declared on field [where]');

    await request(`${node.url}/taken`, { method: 'PUT' });
    const clash = await request<ErrorBody>(`${node.url}/clash`, { method: 'PUT', ...json({ aliases: { taken: {} } }) });
    assert.equal(clash.status, 400);
    assert.equal(clash.body.error.type, 'invalid_alias_name_exception');

    for (const name of ['unknown-key', 'geo', 'clash']) assert.equal((await fetch(`${node.url}/${name}`, { method: 'HEAD' })).status, 404, name);
  });

  it('an index cannot take the name of an alias', async () => {
    await request(`${node.url}/aliased`, { method: 'PUT', ...json({ aliases: { nickname: {} } }) });
    const res = await request<ErrorBody>(`${node.url}/nickname`, { method: 'PUT' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.type, 'invalid_index_name_exception');
    assert.match(res.body.error.reason, /already exists as alias/);
  });

  it('HEAD answers 200 or 404 without a body, for names, aliases and patterns', async () => {
    await request(`${node.url}/present`, { method: 'PUT', ...json({ aliases: { 'present-alias': {} } }) });
    const head = async (p: string) => {
      const res = await fetch(`${node.url}/${p}`, { method: 'HEAD' });
      assert.equal(await res.text(), '');
      return res.status;
    };
    assert.equal(await head('present'), 200);
    assert.equal(await head('present-alias'), 200);
    assert.equal(await head('pres*'), 200);
    assert.equal(await head('absent'), 404);
    assert.equal(await head('absent*'), 404);
  });

  it('GET /{index} of a missing index is a 404, of a pattern without match an empty object', async () => {
    const missing = await request<ErrorBody>(`${node.url}/nowhere`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, 'index_not_found_exception');
    const none = await request(`${node.url}/nowhere-*`);
    assert.equal(none.status, 200);
    assert.deepEqual(none.body, {});
  });

  it('_flush turns the in-memory segment into a segment file', async () => {
    assert.equal((await bulkIndex(node.url, 'flushy', [{ _line: 'one' }, { _line: 'two' }])).status, 200);
    const shard = node.engine.shard('flushy')!;
    assert.equal(shard.segmentRecords().length, 0);
    const res = await request(`${node.url}/flushy/_flush`, { method: 'POST' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { _shards: { total: 1, successful: 1, failed: 0 } });
    assert.equal(shard.segmentRecords().length, 1);
    const file = path.join(node.dataDir, shard.segmentRecords()[0]!.path);
    assert.ok(fs.statSync(file).size > 0);

    assert.equal((await bulkIndex(node.url, 'flushy', [{ _line: 'three' }])).status, 200);
    assert.equal((await request(`${node.url}/flushy/_flush`)).status, 200, 'GET works too');
    assert.equal(shard.segmentRecords().length, 2);
    const missing = await request<ErrorBody>(`${node.url}/no-such/_flush`, { method: 'POST' });
    assert.equal(missing.status, 404);
    const refresh = await request(`${node.url}/flushy/_refresh`, { method: 'POST' });
    assert.deepEqual(refresh.body, { _shards: { total: 1, successful: 1, failed: 0 } });
  });

  it('DELETE removes an index, its aliases and its files; lists and patterns too', async () => {
    assert.equal((await bulkIndex(node.url, 'gone-1', [{ _line: 'a' }])).status, 200);
    assert.equal((await bulkIndex(node.url, 'gone-2', [{ _line: 'b' }])).status, 200);
    assert.equal((await bulkIndex(node.url, 'gone-3', [{ _line: 'c' }])).status, 200);
    await request(`${node.url}/_aliases`, { ...json({ actions: [{ add: { index: 'gone-1', alias: 'gone-alias' } }] }) });
    await request(`${node.url}/gone-1,gone-2/_flush`, { method: 'POST' });
    const dir1 = path.join(node.dataDir, 'indexes', node.engine.shard('gone-1')!.uuid);
    assert.ok(fs.existsSync(dir1));

    const viaAlias = await request<ErrorBody>(`${node.url}/gone-alias`, { method: 'DELETE' });
    assert.equal(viaAlias.status, 400);
    assert.match(viaAlias.body.error.reason, /matches an alias/);

    const res = await request(`${node.url}/gone-1,gone-2`, { method: 'DELETE' });
    assert.deepEqual(res.body, { acknowledged: true });
    assert.equal(fs.existsSync(dir1), false, 'segment files are removed');
    assert.equal(node.engine.shard('gone-1'), undefined);
    assert.equal((await fetch(`${node.url}/gone-alias`, { method: 'HEAD' })).status, 404, 'its aliases went with it');
    assert.deepEqual(await node.metastore.aliases.listAliases({ alias: 'gone-alias' }), []);

    assert.deepEqual((await request(`${node.url}/gone-*`, { method: 'DELETE' })).body, { acknowledged: true });
    assert.equal(node.engine.shard('gone-3'), undefined);
    assert.equal((await request(`${node.url}/gone-*`, { method: 'DELETE' })).status, 200, 'a pattern without match is fine');

    const missing = await request<ErrorBody>(`${node.url}/gone-1`, { method: 'DELETE' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, 'index_not_found_exception');
  });
});

describe('deleted indexes stay deleted', () => {
  const dataDir = tempDir('svc-delete-');
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('after an unclean stop, the write-ahead log does not bring a deleted index back', async () => {
    let node = await spawnNode(dataDir);
    assert.equal((await bulkIndex(node.url, 'doomed', [{ _line: 'unflushed doomed line' }])).status, 200);
    assert.equal((await bulkIndex(node.url, 'vanished', [{ _line: 'unflushed vanished line' }])).status, 200);
    assert.equal((await bulkIndex(node.url, 'kept', [{ _line: 'unflushed kept line' }])).status, 200);
    assert.equal((await request(`${node.url}/doomed,vanished`, { method: 'DELETE' })).status, 200);
    // recreated under the same name: the old document must not come back into it either
    assert.equal((await request(`${node.url}/doomed`, { method: 'PUT' })).status, 200);
    node.child.kill('SIGKILL');
    await exited(node.child);

    node = await spawnNode(dataDir);
    try {
      await waitReady(node.url);
      const doomed = await request<{ count: number }>(`${node.url}/doomed/_count`);
      assert.equal(doomed.status, 200);
      assert.equal(doomed.body.count, 0);
      assert.equal((await fetch(`${node.url}/vanished`, { method: 'HEAD' })).status, 404);
      const kept = await request<{ count: number }>(`${node.url}/kept/_count`);
      assert.equal(kept.body.count, 1, 'the other index keeps its unflushed document');
    } finally {
      node.child.kill('SIGKILL');
      await exited(node.child);
    }
  });
});
