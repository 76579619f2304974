/**
 * The specified deployment end to end: a coordinator, two api processes, three cache nodes and
 * a storage process as separate processes on loopback, one real PostgreSQL metastore, Azurite
 * as the object store and a directory all cache nodes share for their write-ahead logs. Several
 * writers ingest through both api processes; a cache node is killed with SIGKILL in the middle.
 * Its indexes move to the live cache nodes, which recover what it acknowledged and had not
 * flushed; every acknowledged document is then found exactly once. Another cache node then
 * leaves (SIGTERM): its indexes move too while searches keep answering. Searches and
 * aggregations answer as one process holding the same documents.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { exited, request, type ChildNode } from '../support/node.js';
import { postgresUnavailable, startPostgres, type PostgresServer } from '../support/postgres.js';
import { azuriteUnavailable, startAzurite, type AzuriteServer } from '../support/azurite.js';
import { answersOf, bulk, bulkBody, INDEXES } from './support/same-answers.js';
import { TestProcesses, until as untilFound } from './support/processes.js';

const SECRET = 'the-secret-of-this-test-cluster';
const WITH_SECRET = { headers: { 'x-svc-cluster-secret': SECRET } };
const DOCS = 1500;
const BATCH = 25;
const WRITERS = 3;

const unavailable = postgresUnavailable() ?? azuriteUnavailable();
let pgServer: PostgresServer | undefined;
let azurite: AzuriteServer | undefined;
const processes = new TestProcesses();
const until = <T>(what: string, probe: () => Promise<T | undefined>) => untilFound(what, probe, 30_000);

before(async () => {
  if (unavailable !== undefined) return;
  [pgServer, azurite] = await Promise.all([startPostgres(), startAzurite()]);
});

after(async () => {
  await processes.stop();
  await Promise.all([pgServer?.stop(), azurite?.stop()]);
});

/** The node id a child was started with (SVC_NODE_ID), from its first log line. */
function idOf(node: ChildNode): string {
  return /"nodeId":"([^"]+)"/.exec(node.output())![1]!;
}

const start = (id: string, env: Record<string, string>) => processes.start(id, env);

interface ClusterView {
  nodes: Array<{ id: string; live: boolean; roles: string[] }>;
  placements: Array<{ index: string; node_id: string }>;
}

/** Sends documents seq in [from, to) until every item is acknowledged, resending the items that failed (a node that died). */
async function writeAcknowledged(apiUrls: string[], seqs: number[]): Promise<void> {
  let pending = seqs;
  for (let attempt = 0; pending.length > 0; attempt++) {
    assert.ok(attempt < 200, `items still failing after ${attempt} attempts`);
    const body = pending.map((seq) => bulkBody(seq, seq + 1)).join('');
    let items: Awaited<ReturnType<typeof bulk>>['items'];
    try {
      ({ items } = await bulk(apiUrls[attempt % apiUrls.length]!, body));
    } catch {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const failed: number[] = [];
    items.forEach((item, k) => {
      const result = Object.values(item)[0]!;
      if (result.status >= 300) failed.push(pending[k]!);
    });
    pending = failed;
    if (pending.length > 0) await new Promise((r) => setTimeout(r, 100));
  }
}

test('seven processes: writers, a cache node killed, every acknowledged document once, answers as one process', async (t) => {
  if (pgServer === undefined || azurite === undefined) {
    if (process.env.CI) assert.fail(`postgresql and azurite are required when CI is set: ${unavailable}`);
    t.skip(`not available: ${unavailable}`);
    return;
  }
  const [metastoreUrl, container] = await Promise.all([pgServer.newDatabase(), azurite.createContainer()]);
  const sharedWal = processes.dir('svc-shared-wal-');
  const cluster = {
    SVC_METASTORE_URL: metastoreUrl,
    SVC_OBJECT_STORE: azurite.sasUrl(container),
    SVC_SHARED_WAL_DIR: sharedWal,
    SVC_CLUSTER_SECRET: SECRET,
    SVC_HEARTBEAT_INTERVAL_SECONDS: '0.2',
    SVC_LEASE_SECONDS: '1.5',
    // some of each index flushed to the object store, some only in the logs when the node dies
    SVC_MEMTABLE_MAX_AGE_SECONDS: '1',
  };
  const coordinator = await start('coord', { ...cluster, SVC_ROLES: 'coordinator' });
  const apis = await Promise.all([start('api-1', { ...cluster, SVC_ROLES: 'api' }), start('api-2', { ...cluster, SVC_ROLES: 'api' })]);
  const caches = await Promise.all([1, 2, 3].map((n) => start(`cache-${n}`, { ...cluster, SVC_ROLES: 'cache' })));
  await start('storage-1', { ...cluster, SVC_ROLES: 'storage' });
  const view = async () => (await request<ClusterView>(`${coordinator.url}/_internal/cluster`, WITH_SECRET)).body;
  await until('seven live processes', async () => ((await view()).nodes.filter((n) => n.live).length === 7 ? true : undefined));

  const apiUrls = apis.map((a) => a.url);
  // writer w sends documents w, w + WRITERS, ... in batches
  const acknowledged: number[] = [];
  let killed: string | undefined;
  const writer = async (w: number) => {
    const mine: number[] = [];
    for (let seq = w; seq < DOCS; seq += WRITERS) mine.push(seq);
    for (let i = 0; i < mine.length; i += BATCH) {
      const batch = mine.slice(i, i + BATCH);
      await writeAcknowledged(w % 2 === 0 ? apiUrls : [...apiUrls].reverse(), batch);
      acknowledged.push(...batch);
      if (w === 0 && killed === undefined && acknowledged.length >= DOCS / 2) {
        // the cache node holding the most indexes dies in the middle of the ingest
        const placements = (await view()).placements;
        const counts = new Map<string, number>();
        for (const p of placements) counts.set(p.node_id, (counts.get(p.node_id) ?? 0) + 1);
        killed = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
        const victim = caches.find((c) => c.output().includes(`"nodeId":"${killed}"`))!;
        victim.child.kill('SIGKILL');
        await exited(victim.child);
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  assert.ok(killed !== undefined, 'a cache node was killed');

  const moved = await until('every index on a live cache node', async () => {
    const v = await view();
    const live = new Set(v.nodes.filter((n) => n.live).map((n) => n.id));
    return v.placements.length === INDEXES.length && v.placements.every((p) => live.has(p.node_id)) ? v : undefined;
  });
  assert.ok(!moved.placements.some((p) => p.node_id === killed));
  // the indexes moved with writes only the dead node's log held
  const recovered = caches
    .filter((c) => c.child.exitCode === null && c.child.signalCode === null)
    .flatMap((c) => c.output().split('\n'))
    .filter((line) => line.includes('index opened on this node'))
    .map((line) => (JSON.parse(line) as { records: number }).records);
  assert.ok(
    recovered.some((n) => n > 0),
    `a moved index recovered records of the dead node's log: ${JSON.stringify(recovered)}`,
  );

  // every acknowledged document exactly once
  assert.equal(new Set(acknowledged).size, DOCS);
  for (const url of apiUrls) {
    const all = await request<{ hits: { total: { value: number }; hits: Array<{ _id: string; _source: { seq: number } }> } }>(`${url}/logs-*/_search`, {
      body: { size: DOCS + 10, sort: [{ seq: 'asc' }], _source: ['seq'] },
    });
    assert.equal(all.status, 200);
    assert.equal(all.body.hits.total.value, DOCS);
    assert.deepEqual(
      all.body.hits.hits.map((h) => h._source.seq),
      Array.from({ length: DOCS }, (_, i) => i),
    );
  }

  // a cache node that leaves (SIGTERM) flushes, leaves the cluster, and its indexes move; searches keep answering
  const alive = (c: ChildNode) => c.child.exitCode === null && c.child.signalCode === null;
  const holding = (await view()).placements.reduce((m, p) => m.set(p.node_id, (m.get(p.node_id) ?? 0) + 1), new Map<string, number>());
  const leaving = caches.filter(alive).sort((a, b) => (holding.get(idOf(b)) ?? 0) - (holding.get(idOf(a)) ?? 0))[0]!;
  assert.ok((holding.get(idOf(leaving)) ?? 0) > 0);
  let searching = true;
  const counts: number[] = [];
  const searcher = (async () => {
    while (searching) {
      const res = await request<{ count: number }>(`${apiUrls[counts.length % 2]}/logs-*/_count`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      counts.push(res.body.count);
    }
  })();
  leaving.child.kill('SIGTERM');
  await exited(leaving.child);
  await until('the indexes of the node that left on live nodes', async () => {
    const v = await view();
    return v.placements.every((p) => p.node_id !== idOf(leaving)) ? v : undefined;
  });
  const before = counts.length;
  await until('searches after the move', async () => (counts.length > before + 2 ? true : undefined));
  searching = false;
  await searcher;
  assert.ok(counts.every((c) => c === DOCS), `every count during the move: ${JSON.stringify(counts)}`);

  // the same documents in one process answer the same
  const single = await start('single', { SVC_MEMTABLE_MAX_AGE_SECONDS: '1' });
  for (let from = 0; from < DOCS; from += 250) await bulk(single.url, bulkBody(from, Math.min(DOCS, from + 250)));
  const expected = await answersOf(single.url, true);
  for (const url of apiUrls) {
    const actual = await answersOf(url, true);
    for (const name of Object.keys(expected)) assert.deepEqual(actual[name], expected[name], name);
  }
});
