import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { Engine, executeSearch } from '../../../src/engine/index.js';
import type { IndexedDocument } from '../../../src/engine/document/index.js';
import { Indexer, SharedMemtable } from '../../../src/engine/indexer/index.js';
import type { IndexingJobBody } from '../../../src/engine/ingest/index.js';
import { openMetastore, type Metastore } from '../../../src/metastore/index.js';
import { parseQueryString } from '../../../src/query/index.js';
import { writeDocs } from '../../support/engine-writes.js';
import { testEngineOptions } from '../../support/engine-options.js';

const INDEX = 'threaded';

/** Documents of every kind the write path takes: the scanner's fast path and the general one. */
function mixedDocs(from: number, n: number): Array<{ index: string; doc: unknown }> {
  return Array.from({ length: n }, (_, j) => {
    const i = from + j;
    const doc: Record<string, unknown> = {
      _line: `GET /api/item/${i} status=${200 + (i % 5)} user\\"quoted\\" tab\there ${i % 3 === 0 ? 'Alpha Beta' : 'gamma'} ünïcode`,
      level: ['info', 'warn', 'error'][i % 3],
      latency_ms: i % 97,
      ok: i % 2 === 0,
      _ts: 1_700_000_000_000 + i * 1000,
    };
    // nested objects and arrays take the general path
    if (i % 50 === 7) doc['http'] = { method: 'POST', codes: [i, i + 1] };
    return { index: INDEX, doc };
  });
}

const QUERIES = ['*', 'alpha', 'gamma AND level:warn', '"alpha beta"', 'api AND status', 'level:error', 'latency_ms:[10 TO 20]', 'ok:true', 'http.method:POST', 'quoted', 'ünïcode', 'gam*', '_ts:>=1700000500000', 'NOT level:info'];

function answers(engine: Engine): string[] {
  return QUERIES.map((q) => {
    const result = executeSearch(engine.searchTargets([INDEX]), { query: parseQueryString(q), from: 0, size: 10_000, sort: [], trackTotalHits: true });
    const sources = result.hits.map((h) => h.source).sort();
    return `${q} → ${result.total} ${sources.join('\n')}`;
  });
}

async function openEngine(dataDir: string, indexingThreads: number): Promise<{ engine: Engine; metastore: Metastore }> {
  fs.mkdirSync(dataDir, { recursive: true });
  const metastore = await openMetastore({ kind: 'sqlite', path: path.join(dataDir, 'metastore.sqlite') });
  const engine = await Engine.open(testEngineOptions(dataDir, metastore, { indexingThreads }));
  return { engine, metastore };
}

describe('memtables built on an indexing thread', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-indexing-thread-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('answer every query as memtables built on the main thread do, before and after a flush', async () => {
    const here = await openEngine(path.join(root, 'here'), 0);
    const threaded = await openEngine(path.join(root, 'threaded'), 1);
    try {
      for (const { engine } of [here, threaded]) {
        for (let from = 0; from < 3_000; from += 1_000) assert.ok((await writeDocs(engine, mixedDocs(from, 1_000))).every((o) => o.ok));
      }
      const expected = answers(here.engine);
      for (const a of expected) assert.doesNotMatch(a, /^[^→]*→ 0 /, 'every query finds documents');
      assert.deepEqual(answers(threaded.engine), expected);
      await here.engine.flush([INDEX]);
      await threaded.engine.flush([INDEX]);
      assert.deepEqual(answers(threaded.engine), expected, 'the segment written from the shared memtable');
    } finally {
      for (const { engine, metastore } of [here, threaded]) {
        await engine.close();
        await metastore.close();
      }
    }
  });

  it('show every acknowledged document to searches made while later writes are being indexed', async () => {
    const { engine, metastore } = await openEngine(path.join(root, 'concurrent'), 1);
    try {
      await writeDocs(engine, mixedDocs(0, 1));
      let acknowledged = 1;
      let searches = 0;
      let writing = true;
      // searches at every turn of the event loop while the writes run: each sees a whole prefix
      const searching = (async () => {
        while (writing) {
          const floor = acknowledged;
          const result = executeSearch(engine.searchTargets([INDEX]), { query: { kind: 'match_all' }, from: 0, size: 0, sort: [], trackTotalHits: true });
          assert.ok(result.total >= floor, `${result.total} documents seen, ${floor} acknowledged`);
          let docs = 0;
          for (const target of engine.searchTargets([INDEX])) {
            const lids = target.segment.numeric('_lid')!;
            docs += target.segment.numDocs;
            assert.equal(lids.length, target.segment.numDocs);
            for (let d = 1; d < lids.length; d++) assert.equal(lids[d], lids[d - 1]! + 1, 'lids without a gap');
            if (target.segment.numDocs > 0) JSON.parse(target.segment.source(target.segment.numDocs - 1));
          }
          assert.equal(docs, result.total);
          searches++;
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      const writes: Array<Promise<void>> = [];
      for (let w = 0; w < 12; w++) {
        writes.push(
          writeDocs(engine, mixedDocs(1 + w * 2_000, 2_000)).then((outcomes) => {
            assert.ok(outcomes.every((o) => o.ok));
            acknowledged += outcomes.length;
          }),
        );
        if (w === 6) writes.push(engine.flush([INDEX]));
      }
      await Promise.all(writes);
      writing = false;
      await searching;
      assert.ok(searches > 10, `${searches} searches ran during the writes`);
      const all = executeSearch(engine.searchTargets([INDEX]), { query: { kind: 'match_all' }, from: 0, size: 0, sort: [], trackTotalHits: true });
      assert.equal(all.total, 24_001);
    } finally {
      await engine.close();
      await metastore.close();
    }
  });
});

describe('an indexing thread that fails a write', () => {
  /** A job of one general-path document with one field of `type`. */
  function job(lid: number, type: 'keyword' | 'long', value: string | number): IndexingJobBody {
    const doc: IndexedDocument = { id: BigInt(lid), lid, ts: 1_700_000_000_000 + lid, source: JSON.stringify({ a: value, _lid: lid }), fields: [{ name: 'a', type, values: [value] }] };
    const none = new Uint32Array(0);
    return { slots: [], record: new Uint8Array(0), ids: new BigUint64Array([doc.id]), ts: new Float64Array([doc.ts]), lids: new Float64Array([lid]), sourceAt: new Uint32Array(1), sourceLength: new Uint32Array(1), valueEnd: new Uint32Array(1), slot: new Int32Array(0), start: none, end: none, num: new Float64Array(0), general: [[0, doc]] };
  }

  it('rejects that write with the thread\'s error and goes on taking the next ones', async () => {
    const indexer = new Indexer(1, pino({ level: 'silent' }));
    try {
      const memtable = new SharedMemtable('failing', indexer.assign());
      await memtable.add(job(1, 'keyword', 'x'), []);
      // a field whose type the memtable already fixed: the memtable refuses it before writing anything
      await assert.rejects(memtable.add(job(2, 'long', 5), []), /field \[a\] is keyword/);
      await memtable.add(job(3, 'keyword', 'y'), []);
      assert.equal(memtable.numDocs, 2);
      assert.deepEqual(Array.from(memtable.numeric('_lid')!), [1, 3]);
      assert.equal(memtable.source(1), JSON.stringify({ a: 'y', _lid: 3 }));
    } finally {
      await indexer.close();
    }
  });
});
