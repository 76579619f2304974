import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Engine, executeSearch, type CompactionEvents, type MergePolicyOptions } from '../../../src/engine/index.js';
import { Compactor, nextMerge } from '../../../src/engine/compaction/index.js';
import { openMetastore, type Metastore } from '../../../src/metastore/index.js';
import { metastoreCatalog } from '../../../src/node/metastore-catalog.js';
import { LocalObjectStore } from '../../../src/storage/index.js';
import { THREAD_NAME } from '../../../src/engine/segment-writer-pool/index.js';
import { stopNextThreadWhileWriting } from '../../support/writer-thread.js';
import { writeDocs } from '../../support/engine-writes.js';

const merging: MergePolicyOptions = { l0MergeFactor: 3, l1MergeFactor: 3, maxMergeSegments: 8, l2MinDocs: 1_000_000, maxSegmentDocs: 10_000_000 };
/** a policy that never merges: the test runs merges itself */
const holding: MergePolicyOptions = { ...merging, l0MergeFactor: 1_000, l1MergeFactor: 1_000 };

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

interface Setup {
  dataDir: string;
  metastore: Metastore;
  engine: Engine;
  store: LocalObjectStore;
  close(): Promise<void>;
}

async function setup(policy: MergePolicyOptions): Promise<Setup> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-merge-thread-'));
  const metastore = await openMetastore({ kind: 'sqlite', path: path.join(dataDir, 'metastore.sqlite') });
  const store = new LocalObjectStore(path.join(dataDir, 'objects'));
  const engine = await Engine.open({
    dataDir,
    catalog: metastoreCatalog(metastore),
    segmentStore: store,
    logger: pino({ level: 'silent' }),
    memtableMaxBytes: 1 << 30,
    memtableMaxAgeMs: 3_600_000,
    walMaxUnflushedBytes: 1024 ** 3,
    idleIndexMs: 3_600_000,
    mergePolicy: policy,
  });
  return {
    dataDir,
    metastore,
    engine,
    store,
    async close() {
      await engine.close();
      await metastore.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Writes `docs` documents in requests of 5,000, varied enough that merging them is real work. */
async function writeRound(engine: Engine, index: string, round: number, docs: number): Promise<void> {
  for (let start = 0; start < docs; start += 5_000) {
    const ops = [];
    for (let i = start; i < Math.min(docs, start + 5_000); i++) {
      const n = round * 1_000_000 + i;
      const line = `round ${round} doc ${i} ${WORDS[n % WORDS.length]} ${WORDS[(n * 7) % WORDS.length]} user-${n % 9_973} took ${n % 997}ms trace ${(n * 2_654_435_761 % 4_294_967_296).toString(16)}`;
      ops.push({ index, doc: { _line: line, n, host: `host-${n % 13}`, even: n % 2 === 0 } });
    }
    const outcomes = await writeDocs(engine, ops);
    assert.ok(outcomes.every((o) => o.ok));
  }
}

function count(engine: Engine, index: string, text?: string): number {
  const query = text === undefined ? ({ kind: 'match_all' } as const) : ({ kind: 'match', field: '_line', text, operator: 'or' } as const);
  return executeSearch(engine.searchTargets([index]), { query, from: 0, size: 0, sort: [], trackTotalHits: true }).total;
}

/** `_id` and stored source of every document, in the order of the index's segments and docs. */
function documents(engine: Engine, index: string): Array<[bigint, string]> {
  const out: Array<[bigint, string]> = [];
  for (const t of engine.searchTargets([index])) {
    const ids = t.segment.ids();
    for (let d = 0; d < t.segment.numDocs; d++) out.push([ids[d]!, t.segment.source(d)]);
  }
  return out;
}

function recordingEvents(log: string[]): CompactionEvents {
  return {
    started: (p) => log.push(`started ${p.from}->${p.to}`),
    finished: (p, docs) => log.push(`finished ${p.from}->${p.to} ${docs}`),
    failed: (_p, cause) => log.push(`failed ${cause}`),
    fileDeleted: (_ns, ok) => log.push(`deleted ${ok}`),
  };
}

/** A logger keeping its entries, to see which error a failed merge logged. */
function recordingLogger(entries: Array<Record<string, unknown>>) {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      entries.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return pino({ level: 'warn' }, sink);
}

/** Threads of this process named as segment writer threads name themselves (Linux; 0 elsewhere). */
function writerThreads(): number {
  try {
    return fs.readdirSync('/proc/self/task').filter((tid) => {
      try {
        return fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === THREAD_NAME;
      } catch {
        return false; // the thread ended while listed
      }
    }).length;
  } catch {
    return 0;
  }
}

function segFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.includes('.seg')).sort();
}

describe('merges on the segment writer thread', () => {
  const open: Setup[] = [];
  after(async () => {
    for (const s of open) await s.close();
  });

  it('give the same documents, in the same order, as the segments they replace', async () => {
    const s = await setup(merging);
    open.push(s);
    await writeRound(s.engine, 'same', 0, 3_000);
    await s.engine.flush(['same']);
    await writeRound(s.engine, 'same', 1, 2_000);
    await s.engine.flush(['same']);
    await writeRound(s.engine, 'same', 2, 1_000);
    // two segment files and the memtable the next flush turns into the third
    const before = documents(s.engine, 'same');
    const alphas = count(s.engine, 'same', 'alpha');
    await s.engine.flush(['same']);
    await s.engine.compactionIdle();

    const segments = await s.metastore.segments.listSegments('same');
    assert.deepEqual(segments.map((r) => [r.level, r.numDocs]), [[1, 6_000]], 'three L0 segments became one L1 segment');
    const after = documents(s.engine, 'same');
    assert.equal(after.length, before.length);
    assert.deepEqual(after, before);
    assert.equal(count(s.engine, 'same', 'alpha'), alphas);
  });

  it('leave the event loop free while a large merge runs', async () => {
    const s = await setup(merging);
    open.push(s);
    for (let round = 0; round < 3; round++) {
      await writeRound(s.engine, 'big', round, 40_000);
      // the third flush schedules the merge of the three segments
      if (round < 2) await s.engine.flush(['big']);
    }
    const lags: number[] = [];
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      lags.push(now - last - 5);
      last = now;
    }, 5);
    await s.engine.flush(['big']);
    const elu = performance.eventLoopUtilization();
    try {
      lags.length = 0;
      last = performance.now();
      await s.engine.compactionIdle();
    } finally {
      clearInterval(timer);
    }
    const busy = performance.eventLoopUtilization(elu).utilization;
    const segments = await s.metastore.segments.listSegments('big');
    assert.deepEqual(segments.map((r) => [r.level, r.numDocs]), [[1, 120_000]]);
    assert.ok(lags.length >= 5, `the timer fired during the merge (${lags.length} times)`);
    const worst = Math.max(...lags);
    // behaviour, not speed: a merge written on this thread keeps it busy nearly all the time
    assert.ok(busy < 0.5, `the main thread was busy ${(busy * 100).toFixed(0)} % of the merge`);
    assert.ok(worst < 250, `a 5 ms timer was late by ${worst.toFixed(0)} ms at worst`);
  });

  it('finish before the engine closes, and the writer thread stops with it', async () => {
    const s = await setup(merging);
    for (let round = 0; round < 3; round++) {
      await writeRound(s.engine, 'closing', round, 20_000);
      if (round < 2) await s.engine.flush(['closing']);
    }
    const indexDir = path.join(s.dataDir, 'indexes', s.engine.shard('closing')!.uuid);
    // the third flush starts the merge; the engine is closed while it is being written
    await s.engine.flush(['closing']);
    const deadline = Date.now() + 10_000;
    while (!segFiles(indexDir).some((f) => f.endsWith('.tmp')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
    if (process.platform === 'linux') assert.equal(writerThreads(), 1, 'the merge runs on a writer thread');
    await s.engine.close();
    assert.equal(writerThreads(), 0, 'no writer thread is left');
    const segments = await s.metastore.segments.listSegments('closing');
    assert.deepEqual(segments.map((r) => [r.level, r.numDocs]), [[1, 60_000]], 'the merge was finished, not dropped');
    assert.deepEqual(segFiles(indexDir), [path.basename(segments[0]!.path)]);

    const reopened = await Engine.open({
      dataDir: s.dataDir,
      catalog: metastoreCatalog(s.metastore),
      segmentStore: s.store,
      logger: pino({ level: 'silent' }),
      memtableMaxBytes: 1 << 30,
      memtableMaxAgeMs: 3_600_000,
      walMaxUnflushedBytes: 1024 ** 3,
      idleIndexMs: 3_600_000,
    });
    open.push({ ...s, engine: reopened });
    assert.equal(count(reopened, 'closing'), 60_000);
  });

  it('fail when the writer thread dies, leaving the old segments live and searchable', async () => {
    const s = await setup(holding);
    open.push(s);
    for (let round = 0; round < 3; round++) {
      await writeRound(s.engine, 'crash', round, 10_000);
      await s.engine.flush(['crash']);
    }
    const shard = s.engine.shard('crash')!;
    const indexDir = path.join(s.dataDir, 'indexes', shard.uuid);
    const recordsBefore = await s.metastore.segments.listSegments('crash');
    const filesBefore = segFiles(indexDir);
    const objectsBefore = (await s.store.list('indexes/')).map((o) => o.key).sort();
    const docsBefore = documents(s.engine, 'crash');

    const log: string[] = [];
    const catalog = metastoreCatalog(s.metastore);
    const compactor = new Compactor(s.dataDir, catalog, s.store, pino({ level: 'silent' }), recordingEvents(log), merging);
    try {
      const plan = nextMerge(shard.segmentRecords(), merging)!;
      const stop = stopNextThreadWhileWriting(indexDir);
      const merged = compactor.merge(shard, plan);
      await stop.stopped;
      assert.equal(await merged, false);
      assert.deepEqual(log, ['started 0->1', 'failed io']);

      assert.deepEqual(await s.metastore.segments.listSegments('crash'), recordsBefore, 'the catalog still names the old segments');
      assert.deepEqual(segFiles(indexDir), filesBefore, 'no merged or partial file is left');
      assert.deepEqual((await s.store.list('indexes/')).map((o) => o.key).sort(), objectsBefore, 'nothing was uploaded');
      assert.equal(count(s.engine, 'crash'), 30_000);
      assert.equal(count(s.engine, 'crash', 'round'), 30_000);
      assert.deepEqual(documents(s.engine, 'crash'), docsBefore);

      // a new thread takes the next merge
      log.length = 0;
      await compactor.schedule(shard);
      assert.deepEqual(log.slice(0, 2), ['started 0->1', 'finished 0->1 30000']);
      assert.deepEqual((await s.metastore.segments.listSegments('crash')).map((r) => r.numDocs), [30_000]);
      assert.deepEqual(documents(s.engine, 'crash'), docsBefore);
    } finally {
      await compactor.close();
    }
  });

  it('fail on a corrupt input with a CorruptionError, leaving the old segments live and searchable', async () => {
    const s = await setup(holding);
    open.push(s);
    for (let round = 0; round < 3; round++) {
      await writeRound(s.engine, 'corrupt', round, 2_000);
      await s.engine.flush(['corrupt']);
    }
    const shard = s.engine.shard('corrupt')!;
    const indexDir = path.join(s.dataDir, 'indexes', shard.uuid);
    const recordsBefore = await s.metastore.segments.listSegments('corrupt');
    const victim = path.join(s.dataDir, recordsBefore[1]!.path);
    // inside the first doc-store block: the file still opens, a merge fails reading its sources
    const fd = fs.openSync(victim, 'r+');
    const byte = Buffer.alloc(1);
    fs.readSync(fd, byte, 0, 1, 64);
    byte[0]! ^= 0x5a;
    fs.writeSync(fd, byte, 0, 1, 64);
    fs.closeSync(fd);
    const filesBefore = segFiles(indexDir);
    const alphas = count(s.engine, 'corrupt', 'alpha');

    const log: string[] = [];
    const entries: Array<Record<string, unknown>> = [];
    const compactor = new Compactor(s.dataDir, metastoreCatalog(s.metastore), s.store, recordingLogger(entries), recordingEvents(log), merging);
    try {
      assert.equal(await compactor.merge(shard, nextMerge(shard.segmentRecords(), merging)!), false);
      assert.deepEqual(log, ['started 0->1', 'failed io']);
      const failure = entries.find((e) => e.msg === 'compaction failed; the merged segments stay live');
      const err = failure?.err as { type?: string; message?: string } | undefined;
      assert.equal(err?.type, 'CorruptionError', 'the error crossed from the writer thread in its own class');
      assert.ok(err?.message?.includes(victim), 'it names the corrupt file');

      assert.deepEqual(await s.metastore.segments.listSegments('corrupt'), recordsBefore);
      assert.deepEqual(segFiles(indexDir), filesBefore);
      assert.equal(count(s.engine, 'corrupt'), 6_000);
      assert.equal(count(s.engine, 'corrupt', 'alpha'), alphas);
    } finally {
      await compactor.close();
    }
  });
});
