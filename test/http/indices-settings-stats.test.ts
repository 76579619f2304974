/** GET and PUT /{index}/_settings and GET /{index}/_stats on a real node. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

interface ErrorBody {
  error: { type: string; reason: string };
  status: number;
}
type Settings = Record<string, { settings: Record<string, unknown>; defaults?: Record<string, unknown> }>;
interface Section {
  docs?: { count: number; deleted: number };
  store?: { size_in_bytes: number };
  segments?: { count: number };
  indexing?: unknown;
}
interface Stats {
  _shards: { total: number; successful: number; failed: number };
  _all: { primaries: Section; total: Section };
  indices: Record<string, { uuid: string; primaries: Section; total: Section }>;
}

const json = (body: unknown) => ({ body: body as object, headers: { 'content-type': 'application/json' } });

describe('_settings', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
    await request(`${node.url}/conf`, { method: 'PUT', ...json({ settings: { 'index.refresh_interval': '30s', number_of_replicas: 2 } }) });
  });
  after(async () => {
    await node.destroy();
  });

  it('reports the fixed settings and what was given, nested by default', async () => {
    const res = await request<Settings>(`${node.url}/conf/_settings`);
    assert.equal(res.status, 200);
    const index = (res.body.conf!.settings as { index: Record<string, unknown> }).index;
    const shard = node.engine.shard('conf')!;
    assert.equal(index.number_of_shards, '1');
    assert.equal(index.number_of_replicas, '2', 'reported as asked, as Elasticsearch does');
    assert.equal(index.uuid, shard.uuid);
    assert.equal(index.creation_date, String(shard.createdAtMs));
    assert.equal(index.provided_name, 'conf');
    assert.deepEqual(index.version, { created: '7100299' });
    assert.equal(index.refresh_interval, '30s');
  });

  it('flat_settings, name filters, include_defaults and patterns', async () => {
    const flat = await request<Settings>(`${node.url}/conf/_settings?flat_settings=true`);
    assert.equal(flat.body.conf!.settings['index.number_of_shards'], '1');
    const narrowed = await request<Settings>(`${node.url}/conf/_settings/index.number_*?flat_settings=true`);
    assert.deepEqual(narrowed.body.conf!.settings, { 'index.number_of_shards': '1', 'index.number_of_replicas': '2' });
    const defaults = await request<Settings>(`${node.url}/conf/_settings?include_defaults=true&flat_settings=true`);
    assert.equal(defaults.body.conf!.defaults!['index.max_result_window'], '10000');
    assert.equal(defaults.body.conf!.defaults!['index.refresh_interval'], undefined, 'a given setting is not a default');
    await request(`${node.url}/other`, { method: 'PUT' });
    const all = await request<Settings>(`${node.url}/_settings`);
    assert.deepEqual(Object.keys(all.body).sort(), ['conf', 'other']);
    const missing = await request<ErrorBody>(`${node.url}/missing/_settings`);
    assert.equal(missing.status, 404);
  });

  it('PUT changes dynamic settings, persisted, and refuses the fixed ones', async () => {
    const put = await request(`${node.url}/conf/_settings`, { method: 'PUT', ...json({ index: { refresh_interval: '1m', 'max_result_window': 500 } }) });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, { acknowledged: true });
    const after = await request<Settings>(`${node.url}/conf/_settings?flat_settings=true`);
    assert.equal(after.body.conf!.settings['index.refresh_interval'], '1m');
    assert.equal(after.body.conf!.settings['index.max_result_window'], '500');
    const stored = await node.metastore.indexes.getIndex('conf');
    assert.equal(stored!.settings['index.refresh_interval'], '1m');

    const reset = await request(`${node.url}/conf/_settings`, { method: 'PUT', ...json({ settings: { 'index.max_result_window': null } }) });
    assert.equal(reset.status, 200);
    const afterReset = await request<Settings>(`${node.url}/conf/_settings?flat_settings=true`);
    assert.equal(afterReset.body.conf!.settings['index.max_result_window'], undefined);

    const fixed = await request<ErrorBody>(`${node.url}/conf/_settings`, { method: 'PUT', ...json({ index: { number_of_shards: 3 } }) });
    assert.equal(fixed.status, 400);
    assert.match(fixed.body.error.reason, /^Can't update non dynamic settings \[\[index\.number_of_shards\]\] for open indices/);
    assert.equal(fixed.body.error.type, 'illegal_argument_exception');
    const codec = await request<ErrorBody>(`${node.url}/conf/_settings`, { method: 'PUT', ...json({ 'index.codec': 'best_compression' }) });
    assert.equal(codec.status, 400);
    assert.match(codec.body.error.reason, /^Can't update non dynamic settings \[\[index\.codec\]\]/);
  });

  it('PUT takes number_of_replicas and the other dynamic settings, and GET reports them', async () => {
    const put = await request(`${node.url}/conf/_settings`, {
      method: 'PUT',
      ...json({ index: { number_of_replicas: 1, blocks: { read_only_allow_delete: null }, 'translog.durability': 'async' } }),
    });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, { acknowledged: true });
    const after = await request<Settings>(`${node.url}/conf/_settings?flat_settings=true`);
    assert.equal(after.body.conf!.settings['index.number_of_replicas'], '1');
    assert.equal(after.body.conf!.settings['index.translog.durability'], 'async');
  });

  it('values a setting cannot take are refused; a block can be lifted but not set', async () => {
    const put = (index: Record<string, unknown>) => request<ErrorBody>(`${node.url}/conf/_settings`, { method: 'PUT', ...json({ index }) });
    const negative = await put({ number_of_replicas: -1 });
    assert.equal(negative.status, 400);
    assert.equal(negative.body.error.reason, 'Failed to parse value [-1] for setting [index.number_of_replicas] must be >= 0');
    assert.equal((await put({ number_of_replicas: 'two' })).status, 400);
    assert.equal((await put({ refresh_interval: 'soon' })).status, 400);
    assert.equal((await put({ refresh_interval: '-1' })).status, 200);
    assert.equal((await put({ blocks: { read_only_allow_delete: false } })).status, 200);
    const block = await put({ blocks: { write: true } });
    assert.equal(block.status, 400);
    assert.match(block.body.error.reason, /^\[index\.blocks\.write\] cannot be set to \[true\]/);
  });

  it('an unknown setting is refused on PUT _settings, at creation and in a template', async () => {
    const reason = 'unknown setting [index.colour] please check that any required plugins are installed, or check the breaking changes documentation for removed settings';
    const put = await request<ErrorBody>(`${node.url}/conf/_settings`, { method: 'PUT', ...json({ index: { colour: 'red', refresh_interval: '2s' } }) });
    assert.equal(put.status, 400);
    assert.equal(put.body.error.type, 'illegal_argument_exception');
    assert.equal(put.body.error.reason, reason);
    const unchanged = await request<Settings>(`${node.url}/conf/_settings?flat_settings=true`);
    assert.notEqual(unchanged.body.conf!.settings['index.refresh_interval'], '2s', 'nothing of a refused request is applied');
    const create = await request<ErrorBody>(`${node.url}/painted`, { method: 'PUT', ...json({ settings: { colour: 'red' } }) });
    assert.equal(create.status, 400);
    assert.equal(create.body.error.reason, reason);
    assert.equal((await request(`${node.url}/painted`)).status, 404);
    const template = await request<ErrorBody>(`${node.url}/_template/painted`, { method: 'PUT', ...json({ index_patterns: ['p-*'], settings: { 'index.colour': 'red' } }) });
    assert.equal(template.status, 400);
    assert.equal(template.body.error.reason, reason);
  });
});

describe('_stats', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
    await bulkIndex(node.url, 'stat-a', [{ _line: 'one' }, { _line: 'two' }, { _line: 'three' }]);
    await bulkIndex(node.url, 'stat-b', [{ _line: 'four' }]);
  });
  after(async () => {
    await node.destroy();
  });

  it('counts documents in memory and in segment files, and sizes the files', async () => {
    const before = await request<Stats>(`${node.url}/stat-a/_stats`);
    assert.equal(before.status, 200);
    assert.equal(before.body.indices['stat-a']!.primaries.docs!.count, 3);
    const memtableBytes = node.engine.shard('stat-a')!.unflushedMemtables.bytes;
    assert.ok(memtableBytes > 0);
    assert.equal(before.body._all.primaries.store!.size_in_bytes, memtableBytes, 'before a flush: the memtable');
    assert.equal(before.body._all.primaries.segments!.count, 1, 'the memtable counts as a segment');

    await request(`${node.url}/stat-a/_flush`, { method: 'POST' });
    await bulkIndex(node.url, 'stat-a', [{ _line: 'five' }]);
    const res = await request<Stats>(`${node.url}/stat-a/_stats`);
    const shard = node.engine.shard('stat-a')!;
    assert.ok(shard.storeBytes > 0);
    const bytes = shard.storeBytes + shard.unflushedMemtables.bytes;
    assert.deepEqual(res.body._shards, { total: 1, successful: 1, failed: 0 });
    assert.equal(res.body._all.primaries.docs!.count, 4);
    assert.equal(res.body._all.primaries.store!.size_in_bytes, bytes);
    assert.equal(res.body._all.total.store!.size_in_bytes, bytes);
    assert.equal(res.body.indices['stat-a']!.uuid, node.engine.shard('stat-a')!.uuid);
    assert.equal(res.body.indices['stat-a']!.primaries.segments!.count, 2, 'one segment file and the memtable');
  });

  it('counts deleted documents the segments still hold until a merge drops them, in _stats and _cat/indices', async () => {
    await bulkIndex(node.url, 'stat-del', [{ _line: 'keep' }, { _line: 'gone' }, { _line: 'also gone' }]);
    await request(`${node.url}/stat-del/_flush`, { method: 'POST' });
    const hits = await request<{ hits: { hits: Array<{ _id: string }> } }>(`${node.url}/stat-del/_search?q=gone`);
    for (const hit of hits.body.hits.hits) assert.equal((await request(`${node.url}/stat-del/_doc/${hit._id}`, { method: 'DELETE' })).status, 200);
    const docsOf = async () => (await request<Stats>(`${node.url}/stat-del/_stats/docs`)).body.indices['stat-del']!.primaries.docs;
    const catOf = async () => (await request<Array<Record<string, string>>>(`${node.url}/_cat/indices/stat-del?format=json&h=docs.count,docs.deleted`)).body[0];
    assert.deepEqual(await docsOf(), { count: 1, deleted: 2 });
    assert.deepEqual(await catOf(), { 'docs.count': '1', 'docs.deleted': '2' });
    await request(`${node.url}/stat-del/_forcemerge`, { method: 'POST' });
    assert.deepEqual(await docsOf(), { count: 1, deleted: 0 });
    assert.deepEqual(await catOf(), { 'docs.count': '1', 'docs.deleted': '0' });
    await request(`${node.url}/stat-del`, { method: 'DELETE' });
  });

  it('sums over every index and narrows to the metrics asked for', async () => {
    const all = await request<Stats>(`${node.url}/_stats`);
    assert.equal(all.body._all.primaries.docs!.count, 5);
    assert.deepEqual(Object.keys(all.body.indices).sort(), ['stat-a', 'stat-b']);
    const docs = await request<Stats>(`${node.url}/stat-*/_stats/docs`);
    assert.deepEqual(Object.keys(docs.body._all.primaries), ['docs']);
    const two = await request<Stats>(`${node.url}/_stats/docs,store`);
    assert.deepEqual(Object.keys(two.body._all.primaries).sort(), ['docs', 'store']);
    const indexing = await request<Stats>(`${node.url}/stat-b/_stats/indexing`);
    assert.equal(indexing.status, 200, 'a known metric we do not keep is accepted');
    const bad = await request<ErrorBody>(`${node.url}/stat-b/_stats/bogus`);
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.reason, /unrecognized metric: \[bogus\]/);
  });
});
