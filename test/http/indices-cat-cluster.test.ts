/** _cat, _cluster, _license and _xpack on a real node. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

const json = (body: unknown) => ({ body: body as object, headers: { 'content-type': 'application/json' } });

describe('_cat', () => {
  let node: TestNode;
  const text = async (path: string) => {
    const res = await fetch(`${node.url}${path}`);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    return res.text();
  };

  before(async () => {
    node = await startTestNode({ SVC_NODE_NAME: 'cat-node' });
    await bulkIndex(node.url, 'big', Array.from({ length: 40 }, (_, i) => ({ _line: `line ${i} ${randomBytes(100).toString('hex')}`, n: i })));
    await bulkIndex(node.url, 'small', [{ _line: 'tiny' }]);
    await request(`${node.url}/big/_flush`, { method: 'POST' });
    await request(`${node.url}/_aliases`, json({ actions: [{ add: { index: 'small', alias: 'little', is_write_index: true } }] }));
    await request(`${node.url}/_template/tpl`, { method: 'PUT', ...json({ index_patterns: ['tpl-*', 'other-*'], order: 3, version: 2 }) });
  });
  after(async () => {
    await node.destroy();
  });

  it('indices: aligned text columns, header with ?v, numbers to the right', async () => {
    const body = await text('/_cat/indices?v&s=index');
    const lines = body.split('\n');
    assert.equal(lines.at(-1), '', 'ends with a newline');
    assert.match(lines[0]!, /^health status index uuid +pri rep docs.count docs.deleted store.size pri.store.size$/);
    const big = lines[1]!.split(/ +/);
    const shard = node.engine.shard('big')!;
    assert.deepEqual(big.slice(0, 8), ['green', 'open', 'big', shard.uuid, '1', '0', '40', '0']);
    assert.match(big[8]!, /^\d+(\.\d)?kb$/);
    assert.equal(lines[2]!.split(/ +/)[2], 'small');
    assert.equal(lines[1]!.length, lines[2]!.length, 'rows are padded to the same width');
    assert.match(lines[2]!, / \d+(\.\d)?[kmg]?b$/, 'sizes are right-aligned');
    const small = node.engine.shard('small')!;
    const unflushed = small.unflushedMemtables.bytes;
    assert.ok(unflushed > 0);
    assert.equal(await text('/_cat/indices/small?h=store.size,segments.count&bytes=b'), `${small.storeBytes + unflushed} 1\n`, 'the memtable counts as a segment with its bytes');
    const noHeader = await text('/_cat/indices?s=index');
    assert.ok(noHeader.startsWith('green'));
  });

  it('indices: ?h=, ?s= descending, ?bytes=, ?format=json and a named index', async () => {
    assert.equal(await text('/_cat/indices?h=index,dc&s=docs.count:desc'), 'big   40\nsmall  1\n');
    const bytes = node.engine.shard('big')!.storeBytes;
    assert.equal(await text('/_cat/indices/big?h=store.size&bytes=b'), `${bytes}\n`);
    assert.equal(await text('/_cat/indices/big?h=i,ss&bytes=kb'), `big ${Math.floor(bytes / 1024)}\n`);
    assert.equal(await text('/_cat/indices?h=docs.*&s=docs.count'), ' 1 0\n40 0\n');
    const rows = await request<Array<Record<string, string>>>(`${node.url}/_cat/indices?format=json&s=index&bytes=b`);
    assert.equal(rows.body.length, 2);
    assert.deepEqual(rows.body[0], {
      health: 'green',
      status: 'open',
      index: 'big',
      uuid: node.engine.shard('big')!.uuid,
      pri: '1',
      rep: '0',
      'docs.count': '40',
      'docs.deleted': '0',
      'store.size': String(bytes),
      'pri.store.size': String(bytes),
    });
    const missing = await request<{ status: number }>(`${node.url}/_cat/indices/nope`);
    assert.equal(missing.status, 404);
    const badSort = await request<{ status: number }>(`${node.url}/_cat/indices?s=colour`);
    assert.equal(badSort.status, 400);
    const help = await text('/_cat/indices?help');
    assert.match(help, /^health +\| h +\| current health status$/m);
  });

  it('nodes: the default columns, ?h= and json', async () => {
    const body = await text('/_cat/nodes?v');
    const [header, row] = body.split('\n');
    assert.match(header!, /^ip +heap.percent ram.percent cpu load_1m load_5m load_15m node.role master name$/);
    const cells = row!.trim().split(/ +/);
    assert.equal(cells.length, 10);
    assert.equal(cells[8], '*');
    assert.equal(cells[9], 'cat-node');
    for (const i of [1, 2, 3]) assert.match(cells[i]!, /^\d+$/);
    for (const i of [4, 5, 6]) assert.match(cells[i]!, /^\d+\.\d\d$/);
    const rows = await request<Array<Record<string, string>>>(`${node.url}/_cat/nodes?format=json&h=name,port,heap.max&bytes=b`);
    assert.equal(rows.body[0]!.port, String(node.port));
    assert.match(rows.body[0]!['heap.max']!, /^\d+$/);
  });

  it('aliases, count, health and templates', async () => {
    assert.equal(await text('/_cat/aliases?v'), 'alias  index filter routing.index routing.search is_write_index\nlittle small -      -             -              true\n');
    assert.match(await text('/_cat/count?v'), /^ +epoch timestamp count\n\d{10} \d\d:\d\d:\d\d +41\n$/);
    assert.match(await text('/_cat/count/small?h=count'), /^1\n$/);
    const health = (await request<Array<Record<string, string>>>(`${node.url}/_cat/health?format=json`)).body[0]!;
    assert.equal(health.status, 'green');
    assert.equal(health.shards, '2');
    assert.equal(health.active_shards_percent, '100.0%');
    assert.equal(await text('/_cat/templates/tpl?h=name,index_patterns,order,version'), 'tpl [tpl-*, other-*] 3 2\n');
    assert.equal(await text('/_cat/templates/missing'), '');
  });
});

describe('_cluster, _license and _xpack', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ SVC_CLUSTER_NAME: 'test-cluster' });
    await bulkIndex(node.url, 'c1', [{ _line: 'x', n: 1 }]);
    await request(`${node.url}/_aliases`, json({ actions: [{ add: { index: 'c1', alias: 'c-alias' } }] }));
    await request(`${node.url}/_template/ct`, { method: 'PUT', ...json({ index_patterns: ['c*'], mappings: { properties: { n: { type: 'long' } } } }) });
  });
  after(async () => {
    await node.destroy();
  });

  it('health is green with a shard per index', async () => {
    const res = await request<Record<string, unknown>>(`${node.url}/_cluster/health`);
    assert.equal(res.status, 200);
    assert.equal(res.body.cluster_name, 'test-cluster');
    assert.equal(res.body.status, 'green');
    assert.equal(res.body.timed_out, false);
    assert.equal(res.body.number_of_nodes, 1);
    assert.equal(res.body.active_primary_shards, 1);
    assert.equal(res.body.unassigned_shards, 0);
    assert.equal(res.body.active_shards_percent_as_number, 100);
    const waited = await request<Record<string, unknown>>(`${node.url}/_cluster/health/c1?wait_for_status=green&timeout=5s&level=indices`);
    assert.equal(waited.status, 200);
    assert.deepEqual(Object.keys(waited.body.indices as object), ['c1']);
    const bad = await request(`${node.url}/_cluster/health?wait_for_status=purple`);
    assert.equal(bad.status, 400);
  });

  it('health of a missing index waits for the timeout and answers 408 red', async () => {
    const res = await request<Record<string, unknown>>(`${node.url}/_cluster/health/absent?timeout=100ms`);
    assert.equal(res.status, 408);
    assert.equal(res.body.status, 'red');
    assert.equal(res.body.timed_out, true);
  });

  it('health of an index created while waiting answers green', async () => {
    const pending = request<Record<string, unknown>>(`${node.url}/_cluster/health/soon?timeout=10s`);
    await new Promise((r) => setTimeout(r, 100));
    await request(`${node.url}/soon`, { method: 'PUT' });
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'green');
  });

  it('settings are empty; include_defaults adds defaults', async () => {
    assert.deepEqual((await request(`${node.url}/_cluster/settings`)).body, { persistent: {}, transient: {} });
    const res = await request<{ defaults: Record<string, string> }>(`${node.url}/_cluster/settings?include_defaults=true&flat_settings=true`);
    assert.equal(res.body.defaults['cluster.name'], 'test-cluster');
  });

  it('state metadata lists indexes with settings, mappings and aliases, and templates', async () => {
    interface State {
      cluster_name: string;
      metadata: { indices: Record<string, { state: string; settings: { index: Record<string, unknown> }; mappings: { _doc: { properties: object } }; aliases: string[] }>; templates: Record<string, { index_patterns: string[] }> };
    }
    const res = await request<State>(`${node.url}/_cluster/state/metadata`);
    assert.equal(res.status, 200);
    assert.equal(res.body.cluster_name, 'test-cluster');
    const c1 = res.body.metadata.indices.c1!;
    assert.equal(c1.state, 'open');
    assert.equal(c1.settings.index.uuid, node.engine.shard('c1')!.uuid);
    assert.deepEqual(c1.aliases, ['c-alias']);
    assert.ok('n' in c1.mappings._doc.properties);
    assert.deepEqual(res.body.metadata.templates.ct!.index_patterns, ['c*']);
    const one = await request<State>(`${node.url}/_cluster/state/metadata/c1,unknown`);
    assert.deepEqual(Object.keys(one.body.metadata.indices), ['c1']);
  });

  it('_license answers as a basic license, the same one every time', async () => {
    interface License {
      license: Record<string, unknown>;
    }
    const res = await request<License>(`${node.url}/_license?human=false`);
    assert.equal(res.status, 200);
    const license = res.body.license;
    assert.equal(license.status, 'active');
    assert.equal(license.type, 'basic');
    assert.match(String(license.uid), /^[0-9a-f-]{36}$/);
    assert.equal(typeof license.issue_date_in_millis, 'number');
    assert.equal(license.issue_date, new Date(license.issue_date_in_millis as number).toISOString());
    assert.equal(license.issuer, 'elasticsearch');
    assert.equal(license.expiry_date_in_millis, undefined, 'a basic license does not expire');
    assert.deepEqual((await request<License>(`${node.url}/_license`)).body.license, license);
  });

  it('_xpack answers build, license and features; ILM reads as disabled', async () => {
    interface Xpack {
      build: { hash: string; date: string };
      license: { uid: string; type: string; mode: string; status: string };
      features: Record<string, { available: boolean; enabled: boolean }>;
      tagline: string;
    }
    const res = await request<Xpack>(`${node.url}/_xpack`);
    assert.equal(res.status, 200);
    assert.equal(typeof res.body.build.hash, 'string');
    const license = (await request<{ license: { uid: string } }>(`${node.url}/_license`)).body.license;
    assert.deepEqual(res.body.license, { uid: license.uid, type: 'basic', mode: 'basic', status: 'active' });
    assert.deepEqual(res.body.features.ilm, { available: true, enabled: false });
    assert.deepEqual(res.body.features.security, { available: true, enabled: false });
    assert.equal(res.body.features.ml!.available, false);
    for (const feature of Object.values(res.body.features)) assert.deepEqual(Object.keys(feature).sort(), ['available', 'enabled']);
    const onlyLicense = await request<Record<string, unknown>>(`${node.url}/_xpack?categories=license`);
    assert.deepEqual(Object.keys(onlyLicense.body).sort(), ['license', 'tagline']);
    assert.equal((await request(`${node.url}/_xpack?categories=toys`)).status, 400);
  });
});
