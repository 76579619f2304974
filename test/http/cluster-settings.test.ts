/**
 * `GET|PUT /_cluster/settings`: persistent settings survive a restart, transient ones do not,
 * null resets; `action.auto_create_index` (true, false, patterns tried in order) decides which
 * writes may create an index, item by item, while existing indexes keep taking writes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@elastic/elasticsearch';
import { checkAutoCreate, parseAutoCreate } from '../../src/http/indices/cluster-settings.js';
import { ndjson, request, startTestNode, tempDir, type TestNode } from '../support/node.js';

interface BulkBody {
  errors: boolean;
  items: Array<{ index: { _index: string; _id: string | null; status: number; error?: { type: string; reason: string; index?: string; index_uuid?: string } } }>;
}
interface ErrorBody {
  error: { type: string; reason: string };
  status: number;
}

async function bulkTo(url: string, indexes: string[]): Promise<BulkBody> {
  const lines: unknown[] = [];
  for (const index of indexes) lines.push({ index: { _index: index } }, { _line: `to ${index}` });
  const res = await request<BulkBody>(`${url}/_bulk`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(res.status, 200);
  return res.body;
}

describe('action.auto_create_index rules', () => {
  const allows = (text: string, index: string) => {
    try {
      checkAutoCreate(parseAutoCreate(text), index);
      return true;
    } catch {
      return false;
    }
  };

  it('true, false and patterns, the first matching pattern deciding', () => {
    assert.equal(allows('true', 'x'), true);
    assert.equal(allows('false', 'x'), false);
    const rule = 'my-index-000001,index10,-index1*,+ind*';
    assert.equal(allows(rule, 'my-index-000001'), true);
    assert.equal(allows(rule, 'index10'), true);
    assert.equal(allows(rule, 'index11'), false);
    assert.equal(allows(rule, 'indigo'), true);
    assert.equal(allows(rule, 'other'), false);
  });

  it('refuses malformed values as Elasticsearch does', () => {
    assert.throws(() => parseAutoCreate('a,,b'), /must be either \[true, false, or a comma separated list of index patterns\]/);
    assert.throws(() => parseAutoCreate('+'), /must contain an index name after \[\+\]/);
    assert.throws(() => parseAutoCreate('a,-'), /must contain an index name after \[-\]/);
  });

  it('words each refusal as Elasticsearch does', () => {
    assert.throws(() => checkAutoCreate(parseAutoCreate('false'), 'x'), { message: 'no such index [x] and [action.auto_create_index] is [false]' });
    assert.throws(() => checkAutoCreate(parseAutoCreate('-x*,y'), 'x1'), {
      message: 'no such index [x1] and [action.auto_create_index] contains [-x*] which forbids automatic creation of the index',
    });
    assert.throws(() => checkAutoCreate(parseAutoCreate('y,z*'), 'x'), { message: "no such index [x] and [action.auto_create_index] ([y,z*]) doesn't match" });
  });
});

describe('cluster settings over HTTP', () => {
  const dataDir = tempDir();
  let node: TestNode;
  let client: Client;

  before(async () => {
    node = await startTestNode({}, dataDir);
    client = new Client({ node: node.url });
  });

  after(async () => {
    await client.close();
    await node.destroy();
  });

  it('starts empty, takes persistent and transient settings and answers as Elasticsearch does', async () => {
    const empty = await client.cluster.getSettings();
    assert.deepEqual(empty.body, { persistent: {}, transient: {} });
    const put = await request(`${node.url}/_cluster/settings`, {
      method: 'PUT',
      body: { persistent: { action: { auto_create_index: 'logs-*,-secret*' } }, transient: { 'cluster.routing.allocation.enable': 'all' } },
    });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, {
      acknowledged: true,
      persistent: { action: { auto_create_index: 'logs-*,-secret*' } },
      transient: { cluster: { routing: { allocation: { enable: 'all' } } } },
    });
    const flat = await client.cluster.getSettings({ flat_settings: true });
    assert.deepEqual(flat.body, { persistent: { 'action.auto_create_index': 'logs-*,-secret*' }, transient: { 'cluster.routing.allocation.enable': 'all' } });
    const defaults = await request<{ defaults: Record<string, string> }>(`${node.url}/_cluster/settings?include_defaults=true&flat_settings=true`);
    assert.equal(defaults.body.defaults['action.auto_create_index'], undefined, 'a setting that is set is not a default');
  });

  it('obeys auto_create_index item by item; existing indexes still take writes', async () => {
    await request(`${node.url}/_cluster/settings`, { method: 'PUT', body: { persistent: { 'action.auto_create_index': 'false' } } });
    const exists = await request(`${node.url}/existing`, { method: 'PUT' });
    assert.equal(exists.status, 200, 'PUT /{index} creates whatever the setting says');
    await request(`${node.url}/_cluster/settings`, { method: 'PUT', body: { persistent: { 'action.auto_create_index': 'logs-*,-secret*' } } });

    const body = await bulkTo(node.url, ['logs-app', 'secret-1', 'existing', 'other']);
    assert.equal(body.errors, true);
    assert.deepEqual(
      body.items.map((i) => i.index.status),
      [201, 404, 201, 404],
    );
    const refused = body.items[3]!.index;
    assert.equal(refused._index, 'other');
    assert.equal(refused._id, null);
    assert.deepEqual(refused.error, {
      type: 'index_not_found_exception',
      reason: "no such index [other] and [action.auto_create_index] ([logs-*,-secret*]) doesn't match",
      index_uuid: '_na_',
      index: 'other',
    });
    assert.equal(body.items[1]!.index.error!.reason, 'no such index [secret-1] and [action.auto_create_index] contains [-secret*] which forbids automatic creation of the index');
    assert.equal((await request(`${node.url}/other`)).status, 404, 'not created');

    const viaClient = await client.bulk({ body: [{ index: { _index: 'other' } }, { _line: 'x' }, { index: { _index: 'logs-b' } }, { _line: 'y' }] });
    assert.equal(viaClient.body.items[0].index.status, 404);
    assert.equal(viaClient.body.items[1].index.status, 201);
  });

  it('a transient value wins over the persistent one; null resets it', async () => {
    await client.cluster.putSettings({ body: { transient: { 'action.auto_create_index': 'false' } } });
    const off = await bulkTo(node.url, ['logs-c']);
    assert.equal(off.items[0]!.index.error!.reason, 'no such index [logs-c] and [action.auto_create_index] is [false]');
    const reset = await client.cluster.putSettings({ body: { transient: { 'action.auto_create_index': null } } });
    assert.deepEqual(reset.body, { acknowledged: true, persistent: {}, transient: {} });
    const on = await bulkTo(node.url, ['logs-c']);
    assert.equal(on.items[0]!.index.status, 201);
  });

  it('refuses unknown settings and bad values, applying nothing', async () => {
    const unknown = await request<ErrorBody>(`${node.url}/_cluster/settings`, {
      method: 'PUT',
      body: { persistent: { 'action.auto_create_index': 'true', 'colour.of.sky': 'blue' } },
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.type, 'illegal_argument_exception');
    assert.equal(unknown.body.error.reason, 'persistent setting [colour.of.sky], not recognized');
    const bad = await request<ErrorBody>(`${node.url}/_cluster/settings`, { method: 'PUT', body: { transient: { 'action.auto_create_index': 'a,,b' } } });
    assert.equal(bad.status, 400);
    const now = await client.cluster.getSettings({ flat_settings: true });
    assert.equal(now.body.persistent['action.auto_create_index'], 'logs-*,-secret*');
  });

  it('persistent settings survive a restart, transient ones do not', async () => {
    await client.cluster.putSettings({ body: { transient: { 'cluster.routing.allocation.enable': 'primaries' } } });
    await client.close();
    await node.close();
    node = await startTestNode({}, dataDir);
    client = new Client({ node: node.url });
    const settings = await client.cluster.getSettings({ flat_settings: true });
    assert.deepEqual(settings.body, { persistent: { 'action.auto_create_index': 'logs-*,-secret*' }, transient: {} });
    const body = await bulkTo(node.url, ['elsewhere']);
    assert.equal(body.items[0]!.index.status, 404);
  });
});
