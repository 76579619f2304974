/**
 * The same writes, searches and aggregations against one process and against a cluster of
 * separate processes on one real PostgreSQL (a coordinator with the api role, an api process,
 * two cache nodes): the indexes are spread over the cache nodes, bulk bodies are split by the
 * node holding each item's index, searches and scrolls are spread and merged, listings and
 * actions over several indexes are asked of every node holding some and merged, and every answer
 * is the one the single process gives.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { ndjson, request } from '../support/node.js';
import { answersOf, bulk, bulkBody, documentWrites, INDEXES, scrollPages } from './support/same-answers.js';
import { actionsOf, listingsOf } from './support/same-listings.js';
import { clusterOnPostgres, until } from './support/processes.js';

const SECRET = 'the-secret-of-this-test-cluster';
const WITH_SECRET = { headers: { 'x-svc-cluster-secret': SECRET } };

const { processes, metastore } = clusterOnPostgres();

const start = (id: string, env: Record<string, string>) => processes.start(id, env);

test('a split cluster answers writes, searches and aggregations as one process does', async (t) => {
  const metastoreUrl = await metastore(t);
  if (metastoreUrl === undefined) return;
  const cluster = { SVC_METASTORE_URL: metastoreUrl, SVC_CLUSTER_SECRET: SECRET, SVC_HEARTBEAT_INTERVAL_SECONDS: '0.2', SVC_LEASE_SECONDS: '1.5' };
  const single = await start('single', {});
  const coordinator = await start('coord', { ...cluster, SVC_ROLES: 'coordinator,api' });
  const api = await start('api', { ...cluster, SVC_ROLES: 'api' });
  const cache1 = await start('cache-1', { ...cluster, SVC_ROLES: 'cache,storage' });
  const cache2 = await start('cache-2', { ...cluster, SVC_ROLES: 'cache' });
  await until('both cache nodes live', async () => {
    const view = (await request<{ nodes: Array<{ id: string; live: boolean }> }>(`${coordinator.url}/_internal/cluster`, WITH_SECRET)).body;
    return view.nodes.filter((n) => n.live && n.id.startsWith('cache')).length === 2 ? true : undefined;
  });

  // the same bodies to both layouts, alternating the api processes of the cluster
  for (let from = 0, k = 0; from < 400; from += 50, k++) {
    const body = bulkBody(from, from + 50);
    const one = await bulk(single.url, body);
    const split = await bulk(k % 2 === 0 ? coordinator.url : api.url, body);
    assert.equal(split.errors, false, JSON.stringify(split.items.find((item) => JSON.stringify(item).includes('"error"'))));
    assert.deepEqual(split.items, one.items);
  }
  assert.deepEqual(await documentWrites(api.url), await documentWrites(single.url));
  // items that fail before any cache node, between items that go to both of them, in order
  const mixed = ndjson([
    { index: { _index: 'logs-a', _id: 'm1' } },
    { n: 1, _ts: 1_700_000_000_000 },
    { index: { _index: 'logs-b', _id: '' } },
    { n: 2, _ts: 1_700_000_000_000 },
    { update: { _index: 'logs-c', _id: 'd2' } },
    { script: 'ctx._source.n = 1' },
    { create: { _index: 'logs-b', _id: 'd5' } },
    { n: 3, _ts: 1_700_000_000_000 },
    { delete: { _index: 'logs-d', _id: 'd7' } },
    { index: { _index: 'logs-c', _id: 'm2' } },
    '{"not json',
  ]);
  const mixedSingle = await bulk(single.url, mixed);
  const mixedSplit = await bulk(api.url, mixed);
  // the bytes clients wrote are counted once, by the api process that took each request
  const written = async (urls: string[]) => (await Promise.all(urls.map((url) => usageWriteBytes(url)))).reduce((a, b) => a + b, 0);
  assert.ok((await written([single.url])) > 0);
  assert.equal(await written([coordinator.url, api.url, cache1.url, cache2.url]), await written([single.url]));
  assert.equal(mixedSplit.errors, true);
  // index uuids are made at random in each layout
  const withoutUuids = (items: unknown) => JSON.parse(JSON.stringify(items, (k, v: unknown) => (k === 'index_uuid' ? undefined : v))) as unknown;
  assert.deepEqual(withoutUuids(mixedSplit.items), withoutUuids(mixedSingle.items));

  // only cache nodes have a write-ahead log; their internal routes want the secret
  assert.equal(fs.existsSync(path.join(api.dir, 'wal')), false);
  assert.equal(fs.existsSync(path.join(coordinator.dir, 'wal')), false);
  assert.equal((await request(`${cache1.url}/_internal/search`, { body: {} })).status, 401);
  assert.equal((await request(`${cache1.url}/_internal/es`, { headers: { 'x-svc-forward-url': '/_search' } })).status, 401);
  assert.equal((await request(`${cache1.url}/_search`)).status, 400);

  // the indexes are spread over both cache nodes
  const placements = (await request<{ placements: Array<{ index: string; node_id: string }> }>(`${coordinator.url}/_internal/cluster`, WITH_SECRET)).body.placements;
  assert.deepEqual(placements.map((p) => p.index).sort(), [...INDEXES, 'logs-e'].sort());
  assert.deepEqual(new Set(placements.map((p) => p.node_id)), new Set(['cache-1', 'cache-2']));

  const expected = await answersOf(single.url);
  // the other api process reads the catalog again within a heartbeat interval
  await new Promise((r) => setTimeout(r, 500));
  for (const url of [api.url, coordinator.url]) {
    const actual = await answersOf(url);
    for (const name of Object.keys(expected)) assert.deepEqual(actual[name], expected[name], name);
  }
  // scrolls page through the same hits
  const pages = await scrollPages(single.url);
  assert.ok(pages.length > 20);
  assert.deepEqual(await scrollPages(api.url), pages);

  // health counts the processes of the cluster and every index, whichever node holds it
  const health = (await request<{ number_of_nodes: number; number_of_data_nodes: number; active_shards: number }>(`${api.url}/_cluster/health`)).body;
  assert.deepEqual([health.number_of_nodes, health.number_of_data_nodes, health.active_shards], [4, 2, INDEXES.length + 1]);

  // listings over the indexes of both cache nodes, and actions over them (deletion by pattern last)
  const listings = await listingsOf(single.url);
  for (const url of [api.url, coordinator.url]) {
    const actual = await listingsOf(url);
    for (const name of Object.keys(listings)) assert.deepEqual(actual[name], listings[name], name);
  }
  assert.deepEqual(await actionsOf(api.url), await actionsOf(single.url));
});

async function usageWriteBytes(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('svc_usage_write_bytes '));
  assert.ok(line, `no svc_usage_write_bytes at ${url}`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}
