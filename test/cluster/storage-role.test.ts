/**
 * The storage role of a split layout, with real processes on one PostgreSQL and Azurite: the
 * coordinator schedules a merge of an index's flushed segments, the storage process merges them
 * from the object store and commits the swap, the cache node holding the index takes the merged
 * file in, and deletes made while the merge ran stick; replaced files are then removed from the
 * object store after the grace period. The write budget is the cluster's: two cache nodes, each
 * under it, together over it, get bulk writes refused with 429.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import { exited, ndjson, request } from '../support/node.js';
import { postgresUnavailable, startPostgres, type PostgresServer } from '../support/postgres.js';
import { azuriteUnavailable, startAzurite, type AzuriteServer } from '../support/azurite.js';
import { TestProcesses, until } from './support/processes.js';
import { openMetastore, type Metastore } from '../../src/metastore/index.js';
import { openObjectStore } from '../../src/storage/index.js';

const SECRET = 'the-secret-of-this-test-cluster';
const WITH_SECRET = { headers: { 'x-svc-cluster-secret': SECRET } };
const INDEX = 'logs-m';
const BATCHES = 8;
const PER_BATCH = 100;

const unavailable = postgresUnavailable() ?? azuriteUnavailable();
let pgServer: PostgresServer | undefined;
let azurite: AzuriteServer | undefined;
const processes = new TestProcesses();
const metastores: Metastore[] = [];

before(async () => {
  if (unavailable !== undefined) return;
  [pgServer, azurite] = await Promise.all([startPostgres(), startAzurite()]);
});

after(async () => {
  for (const m of metastores) await m.close();
  await processes.stop();
  await Promise.all([pgServer?.stop(), azurite?.stop()]);
});

/** A fresh database and container for one test, or a skip when PostgreSQL or Azurite is missing. */
async function clusterSettings(t: TestContext): Promise<{ env: Record<string, string>; metastore: Metastore; sasUrl: string } | undefined> {
  if (pgServer === undefined || azurite === undefined) {
    if (process.env.CI) assert.fail(`postgresql and azurite are required when CI is set: ${unavailable}`);
    t.skip(`not available: ${unavailable}`);
    return undefined;
  }
  const [metastoreUrl, container] = await Promise.all([pgServer.newDatabase(), azurite.createContainer()]);
  const sasUrl = azurite.sasUrl(container);
  const env = {
    SVC_METASTORE_URL: metastoreUrl,
    SVC_OBJECT_STORE: sasUrl,
    SVC_CLUSTER_SECRET: SECRET,
    SVC_HEARTBEAT_INTERVAL_SECONDS: '0.2',
    SVC_LEASE_SECONDS: '1.5',
  };
  // the processes migrate the database; the test reads the catalog after the first has started
  const metastore = await openMetastore({ kind: 'postgres', url: metastoreUrl });
  metastores.push(metastore);
  return { env, metastore, sasUrl };
}

const docId = (seq: number) => `m${seq}`;

function batchBody(from: number, to: number): string {
  const lines: unknown[] = [];
  for (let seq = from; seq < to; seq++) {
    lines.push({ index: { _index: INDEX, _id: docId(seq) } }, { _ts: Date.UTC(2024, 0, 1) + seq * 1000, seq, msg: `line ${seq} of the merge test` });
  }
  return ndjson(lines);
}

async function ok<T>(res: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const { status, body } = await res;
  assert.ok(status < 300, `${what}: ${status} ${JSON.stringify(body)}`);
  return body;
}

test('split layout: the storage process merges flushed segments, deletes made during the merge stick, GC removes the replaced files', async (t) => {
  const settings = await clusterSettings(t);
  if (settings === undefined) return;
  const { metastore } = settings;
  const env = { ...settings.env, SVC_GC_GRACE_SECONDS: '1', SVC_GC_INTERVAL_SECONDS: '0.3' };
  const coordinator = await processes.start('coord', { ...env, SVC_ROLES: 'coordinator' });
  const api = await processes.start('api', { ...env, SVC_ROLES: 'api' });
  let cache = await processes.start('cache', { ...env, SVC_ROLES: 'cache' });
  const storage = await processes.start('storage', { ...env, SVC_ROLES: 'storage' });
  // what the processes said, when something went wrong
  let passed = false;
  t.after(() => {
    if (!passed) for (const p of [coordinator, api, cache, storage]) t.diagnostic(p.output().split('\n').slice(-40).join('\n'));
  });
  await until('four live processes', async () => {
    const view = (await request<{ nodes: Array<{ live: boolean }> }>(`${coordinator.url}/_internal/cluster`, WITH_SECRET)).body;
    return view.nodes.filter((n) => n.live).length === 4 ? true : undefined;
  });

  // a file no segment row names (a flush that uploaded and stopped before its commit)
  const store = openObjectStore(settings.sasUrl, { dataDir: processes.dir('svc-store-reader-') });
  t.after(() => store.close());
  const strayFile = path.join(processes.dir('svc-stray-'), 'stray.seg');
  fs.writeFileSync(strayFile, 'never committed');
  const STRAY = 'indexes/00000000-0000-0000-0000-000000000000/stray.seg';
  await store.put(STRAY, { filePath: strayFile });

  // eight flushes: eight L0 segments, which the merge policy merges into one L1 segment
  const deleted = new Set<number>();
  const remove = async (seq: number) => {
    await ok(request(`${api.url}/${INDEX}/_doc/${docId(seq)}`, { method: 'DELETE' }), `delete ${seq}`);
    // the flush records the delete in the catalog (or fails): afterwards it is there
    await ok(request(`${api.url}/${INDEX}/_flush`, { method: 'POST' }), 'flush');
    deleted.add(seq);
  };
  for (let b = 0; b < BATCHES; b++) {
    // deletes recorded before the merge is due (seven segments): the merged file leaves them out
    if (b === BATCHES - 1) for (const seq of [0, 1, 2, 150, 151]) await remove(seq);
    const res = await ok(
      request<{ errors: boolean }>(`${api.url}/_bulk`, { body: batchBody(b * PER_BATCH, (b + 1) * PER_BATCH), headers: { 'content-type': 'application/x-ndjson' } }),
      'bulk',
    );
    assert.equal(res.errors, false);
    await ok(request(`${api.url}/${INDEX}/_flush`, { method: 'POST' }), 'flush');
  }
  const l0 = await metastore.segments.listSegments(INDEX);
  assert.equal(l0.length, BATCHES);

  // deletes while the merge is scheduled and runs, and a few after it committed
  let seq = 3;
  let after = 0;
  let merged: Awaited<ReturnType<typeof metastore.segments.listSegments>> = [];
  const deadline = Date.now() + 15_000;
  while (after < 3) {
    assert.ok(Date.now() < deadline, 'the merge was not committed in time');
    if (!deleted.has(seq)) await remove(seq);
    seq += 7;
    merged = await metastore.segments.listSegments(INDEX);
    if (merged.every((s) => s.level === 1)) after++;
  }
  assert.equal(merged.length, 1);
  const [segment] = merged;
  assert.equal(segment!.level, 1);
  // merged by the storage process, not by the cache node
  assert.match(storage.output(), new RegExp(`"index":"${INDEX}".*segments merged by the storage role`));
  assert.doesNotMatch(cache.output(), /compaction|merged segments stay live/);
  const metrics = await (await fetch(`${storage.url}/metrics`)).text();
  assert.match(metrics, /svc_compaction_doc_count\{level="1"\} [1-9]/, 'the storage process counts its merges');
  await until('the cache node took the merged segment in', async () => (cache.output().includes('segments merged by another process taken in') ? true : undefined));

  const total = BATCHES * PER_BATCH;
  const expected = Array.from({ length: total }, (_, i) => i).filter((i) => !deleted.has(i));
  const searchAll = async () => {
    const res = await ok(
      request<{ hits: { total: { value: number }; hits: Array<{ _id: string; _source: { seq: number } }> } }>(`${api.url}/${INDEX}/_search`, {
        body: { size: total, sort: [{ seq: 'asc' }], _source: ['seq'], track_total_hits: true },
      }),
      'search',
    );
    return res.hits;
  };
  const hits = await searchAll();
  assert.equal(hits.total.value, expected.length);
  assert.deepEqual(
    hits.hits.map((h) => h._source.seq),
    expected,
  );
  assert.equal((await ok(request<{ count: number }>(`${api.url}/${INDEX}/_count`), 'count')).count, expected.length);

  // the catalog holds every delete: the merged segment's file left out the ones made before the
  // merge read its inputs, and its record names the others
  const record = (await metastore.segments.listSegments(INDEX))[0]!;
  t.diagnostic(`deletes: ${deleted.size}; left out of the merged file: ${total - record.numDocs}; recorded on it: ${record.deletedLids?.length ?? 0}`);
  assert.ok(record.numDocs <= total - 5, `the deletes made before the merge was due are not in the merged file: ${record.numDocs}`);
  assert.equal(record.numDocs - (record.deletedLids?.length ?? 0), expected.length);

  // the catalog alone (a cache node started again with an empty data directory) gives the same documents
  cache.child.kill('SIGKILL');
  await exited(cache.child);
  cache = await processes.start('cache', { ...env, SVC_ROLES: 'cache' });
  const again = await until('searches answer from the restarted cache node', async () => {
    const res = await request<{ hits?: { total: { value: number }; hits: Array<{ _source: { seq: number } }> } }>(`${api.url}/${INDEX}/_search`, {
      body: { size: total, sort: [{ seq: 'asc' }], _source: ['seq'], track_total_hits: true },
    });
    return res.status === 200 ? res.body.hits : undefined;
  });
  assert.equal(again!.total.value, expected.length);
  assert.deepEqual(
    again!.hits.map((h) => h._source.seq),
    expected,
  );

  // the replaced files and the stray one go from the object store once the grace period has passed; the merged one stays
  await until(
    'the replaced and unreferenced segment files deleted',
    async () => {
      const keys = new Set((await store.list('indexes/')).map((o) => o.key));
      return l0.every((s) => !keys.has(s.path)) && !keys.has(STRAY) && keys.has(record.path) ? true : undefined;
    },
    15_000,
  );
  assert.equal((await metastore.segments.listDeletable()).filter((s) => l0.some((r) => r.id === s.id)).length, 0, 'the rows of the deleted files are purged');
  passed = true;
});

test('split layout: bulk writes get 429 when the unflushed bytes of two cache nodes together pass the budget', async (t) => {
  const settings = await clusterSettings(t);
  if (settings === undefined) return;
  const BUDGET = 60_000;
  const env = { ...settings.env, SVC_STORAGE_MAX_PENDING_BYTES: String(BUDGET) };
  const coordinator = await processes.start('coord-b', { ...env, SVC_ROLES: 'coordinator' });
  const api = await processes.start('api-b', { ...env, SVC_ROLES: 'api' });
  const caches = await Promise.all(['cache-b1', 'cache-b2'].map((id) => processes.start(id, { ...env, SVC_ROLES: 'cache' })));
  interface View {
    nodes: Array<{ id: string; live: boolean; unflushed_bytes?: number }>;
    placements: Array<{ index: string; node_id: string }>;
  }
  const view = async () => (await request<View>(`${coordinator.url}/_internal/cluster`, WITH_SECRET)).body;
  await until('four live processes', async () => ((await view()).nodes.filter((n) => n.live).length === 4 ? true : undefined));
  for (const index of ['budget-a', 'budget-b']) await ok(request(`${api.url}/${index}`, { method: 'PUT' }), `create ${index}`);
  const placements = (await view()).placements;
  assert.notEqual(placements.find((p) => p.index === 'budget-a')?.node_id, placements.find((p) => p.index === 'budget-b')?.node_id, 'one index on each cache node');

  // 40 KB of sources into each index: each cache node alone stays under the budget
  const body = (index: string) => {
    const lines: unknown[] = [];
    for (let i = 0; i < 40; i++) lines.push({ index: { _index: index } }, { seq: i, msg: 'x'.repeat(1000) });
    return ndjson(lines);
  };
  // a probe adds a few bytes when it is taken: it never puts one node over the budget
  const probe = (index: string) => ndjson([{ index: { _index: index } }, { seq: -1 }]);
  const bulk = (index: string, text = body(index)) => request<{ errors: boolean; error?: { type: string; reason: string }; status?: number }>(`${api.url}/_bulk`, {
    body: text,
    headers: { 'content-type': 'application/x-ndjson' },
  });
  assert.equal((await ok(bulk('budget-a'), 'bulk a')).errors, false);
  // the first node's report may or may not be read yet: either way the sum is under the budget
  assert.equal((await ok(bulk('budget-b'), 'bulk b')).errors, false);
  const reported = await until('both cache nodes report their unflushed bytes', async () => {
    const nodes = (await view()).nodes.filter((n) => n.id.startsWith('cache-b'));
    return nodes.length === 2 && nodes.every((n) => (n.unflushed_bytes ?? 0) > 0) ? nodes : undefined;
  });
  for (const n of reported) assert.ok(n.unflushed_bytes! < BUDGET, `${n.id} alone is under the budget: ${n.unflushed_bytes}`);
  assert.ok(reported.reduce((sum, n) => sum + n.unflushed_bytes!, 0) > BUDGET);

  // the api process refuses the request whole, before sending it anywhere
  const refused = await until('a bulk request refused by the api process', async () => {
    const res = await bulk('budget-a', probe('budget-a'));
    return res.status === 429 ? res : undefined;
  });
  assert.equal(refused.body.status, 429);
  assert.equal(refused.body.error?.type, 'es_rejected_execution_exception');
  assert.match(refused.body.error!.reason, /waiting for storage, over the budget of 60000 bytes/);

  // a cache node decides against the sum too: its own bytes are under the budget
  const holderOfA = caches.find((c) => c.output().includes(`"nodeId":"${placements.find((p) => p.index === 'budget-a')!.node_id}"`))!;
  const direct = await until('a bulk request refused by the cache node', async () => {
    // it reads the other node's figure at its own heartbeat
    const res = await request<{ error?: { type: string } }>(`${holderOfA.url}/_internal/es`, {
      body: probe('budget-a'),
      headers: { ...WITH_SECRET.headers, 'x-svc-forward-url': '/_bulk', 'content-type': 'application/x-ndjson' },
    });
    return res.status === 429 ? res : undefined;
  });
  assert.equal(direct.body.error?.type, 'es_rejected_execution_exception');
  const after = await until('the figures after the probes', async () => {
    const nodes = (await view()).nodes.filter((n) => n.id.startsWith('cache-b'));
    return nodes.length === 2 ? nodes : undefined;
  });
  for (const n of after) assert.ok(n.unflushed_bytes! < BUDGET, `${n.id} alone is still under the budget: ${n.unflushed_bytes}`);

  // once flushed, the budget is free again
  for (const index of ['budget-a', 'budget-b']) await ok(request(`${api.url}/${index}/_flush`, { method: 'POST' }), `flush ${index}`);
  await until('writes accepted again after the flushes', async () => ((await bulk('budget-a', probe('budget-a'))).status === 200 ? true : undefined));
});
