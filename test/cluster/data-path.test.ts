/**
 * The specified deployment end to end: a coordinator, two api processes, three cache nodes and
 * a storage process as separate processes on loopback, one real PostgreSQL metastore, Azurite
 * as the object store and a directory all cache nodes share for their write-ahead logs. Several
 * writers ingest through both api processes; a cache node is killed with SIGKILL in the middle.
 * Its indexes move to the live cache nodes, which recover what it acknowledged and had not
 * flushed; every acknowledged document is then found exactly once. While writers and searches
 * go on, a fourth cache node joins and is handed some indexes, then a cache node is drained:
 * no write fails, every search answers with at least the documents acknowledged before it, and
 * nothing is lost or doubled. Another cache node then stops (SIGTERM): it hands its indexes over
 * before it leaves while searches keep answering. Searches and aggregations answer as one
 * process holding the same documents.
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
  placements: Array<{ index: string; node_id: string; moving_to: string | null }>;
}

/** Sends documents `seqs` until every item is acknowledged, resending the items that failed (a node that died); `failed` counts them. */
async function writeAcknowledged(apiUrls: string[], seqs: number[], failed: { items: number } = { items: 0 }): Promise<void> {
  let pending = seqs;
  for (let attempt = 0; pending.length > 0; attempt++) {
    assert.ok(attempt < 200, `items still failing after ${attempt} attempts`);
    const body = pending.map((seq) => bulkBody(seq, seq + 1)).join('');
    let items: Awaited<ReturnType<typeof bulk>>['items'];
    try {
      ({ items } = await bulk(apiUrls[attempt % apiUrls.length]!, body));
    } catch {
      failed.items += pending.length;
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const again: number[] = [];
    items.forEach((item, k) => {
      const result = Object.values(item)[0]!;
      if (result.status >= 300) again.push(pending[k]!);
    });
    failed.items += again.length;
    pending = again;
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

  // while writers and searches go on, a fourth cache node joins and takes some indexes, then a
  // cache node is drained: indexes move between live nodes without a failed write or search
  const alive = (c: ChildNode) => c.child.exitCode === null && c.child.signalCode === null;
  const placedCounts = async () => (await view()).placements.reduce((m, p) => m.set(p.node_id, (m.get(p.node_id) ?? 0) + 1), new Map<string, number>());
  const moving = { writes: true, searches: true };
  const failedWrites = { items: 0 };
  let nextSeq = DOCS;
  const moreWriters = Array.from({ length: WRITERS }, async (_, w) => {
    while (moving.writes && nextSeq < 4 * DOCS) {
      const batch = Array.from({ length: BATCH }, (_, k) => nextSeq + k);
      nextSeq += BATCH;
      await writeAcknowledged(w % 2 === 0 ? apiUrls : [...apiUrls].reverse(), batch, failedWrites);
      acknowledged.push(...batch);
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  const badSearches: string[] = [];
  let searchesDuringMoves = 0;
  const searchesGoOn = (async () => {
    while (moving.searches) {
      const seen = acknowledged.length;
      const res = await request<{ count: number }>(`${apiUrls[searchesDuringMoves % 2]}/logs-*/_count`);
      searchesDuringMoves++;
      if (res.status !== 200 || res.body.count < seen) badSearches.push(`${res.status} ${JSON.stringify(res.body)} (acknowledged before: ${seen})`);
    }
  })();
  const joined = await start('cache-4', { ...cluster, SVC_ROLES: 'cache' });
  caches.push(joined);
  const balanced = await until('the joining cache node holds some indexes', async () => {
    const v = await view();
    return v.placements.some((p) => p.node_id === 'cache-4') && v.placements.every((p) => p.moving_to === null) ? v : undefined;
  });
  const liveHolders = [...(await placedCounts())].filter(([id]) => balanced.nodes.some((n) => n.id === id && n.live));
  assert.ok(Math.max(...liveHolders.map(([, n]) => n)) - Math.min(...liveHolders.map(([, n]) => n)) <= 1, JSON.stringify(liveHolders));
  const drained = caches
    .filter((c) => alive(c) && c !== joined)
    .sort((a, b) => (liveHolders.find(([id]) => id === idOf(b))?.[1] ?? 0) - (liveHolders.find(([id]) => id === idOf(a))?.[1] ?? 0))[0]!;
  const drain = await request<{ node_id: string; draining: boolean; indexes: string[] }>(`${drained.url}/_internal/drain?wait_for_completion=true&timeout=20s`, {
    method: 'POST',
    ...WITH_SECRET,
  });
  assert.equal(drain.status, 200, JSON.stringify(drain.body));
  assert.deepEqual(drain.body, { node_id: idOf(drained), draining: true, indexes: [] });
  assert.ok((await view()).placements.every((p) => p.node_id !== idOf(drained)));
  moving.writes = false;
  await Promise.all(moreWriters);
  const writtenDuringMoves = acknowledged.length - DOCS;
  moving.searches = false;
  await searchesGoOn;
  assert.equal(failedWrites.items, 0, 'a write to a moving index is sent again by the api process, not failed');
  assert.deepEqual(badSearches, [], `searches during the moves (${searchesDuringMoves})`);
  assert.ok(writtenDuringMoves > 0 && searchesDuringMoves > 0, `${writtenDuringMoves} documents written and ${searchesDuringMoves} searches during the moves`);
  const handovers = coordinator
    .output()
    .split('\n')
    .filter((line) => line.includes('index handed over to another cache node'))
    .map((line) => JSON.parse(line) as { index: string; from: string; to: string });
  assert.ok(handovers.some((h) => h.to === 'cache-4') && handovers.some((h) => h.from === idOf(drained)), JSON.stringify(handovers));
  t.diagnostic(`during the moves: ${writtenDuringMoves} documents written, ${searchesDuringMoves} searches, handovers ${JSON.stringify(handovers)}`);
  const total = acknowledged.length;
  assert.equal(new Set(acknowledged).size, total);
  for (const url of apiUrls) {
    const all = await request<{ hits: { total: { value: number }; hits: Array<{ _source: { seq: number } }> } }>(`${url}/logs-*/_search`, {
      body: { size: total + 10, sort: [{ seq: 'asc' }], _source: ['seq'] },
    });
    assert.equal(all.status, 200);
    assert.equal(all.body.hits.total.value, total);
    assert.deepEqual(
      all.body.hits.hits.map((h) => h._source.seq),
      Array.from({ length: total }, (_, i) => i),
    );
  }

  // a cache node that stops (SIGTERM) hands its indexes over first, then leaves; searches keep answering
  const holding = await placedCounts();
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
  // handed over before it left: nothing waits for its lease to run out
  assert.ok(leaving.output().includes('every index handed over to other cache nodes'), leaving.output().slice(-2000));
  assert.ok((await view()).placements.every((p) => p.node_id !== idOf(leaving)));
  const before = counts.length;
  await until('searches after the move', async () => (counts.length > before + 2 ? true : undefined));
  searching = false;
  await searcher;
  assert.ok(counts.every((c) => c === total), `every count during the move: ${JSON.stringify(counts)}`);

  // the same documents in one process answer the same
  const single = await start('single', { SVC_MEMTABLE_MAX_AGE_SECONDS: '1' });
  for (let from = 0; from < total; from += 250) await bulk(single.url, bulkBody(from, Math.min(total, from + 250)));
  const expected = await answersOf(single.url, true);
  for (const url of apiUrls) {
    const actual = await answersOf(url, true);
    for (const name of Object.keys(expected)) assert.deepEqual(actual[name], expected[name], name);
  }
});
