import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { Engine, QueryPool, executeSearch, type SearchRequest } from '../../../src/engine/index.js';
import { openMetastore, type Metastore } from '../../../src/metastore/index.js';
import { metastoreCatalog } from '../../../src/node/metastore-catalog.js';
import { LocalObjectStore } from '../../../src/storage/index.js';
import { QueryTimeoutError } from '../../../src/common/index.js';
import { NO_QUERY_POOL_EVENTS } from '../../../src/engine/query-pool/index.js';
import { runsHere } from '../../../src/engine/query-pool/query-pool.js';
import { segment, text } from '../search/corpus.js';
import type { Query } from '../../../src/query/index.js';
import { writeDocs } from '../../support/engine-writes.js';

const logger = pino({ level: 'silent' });

describe('query threads', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pool-'));
  let metastore: Metastore;
  let engine: Engine;
  let pool: QueryPool;

  before(async () => {
    metastore = await openMetastore({ kind: 'sqlite', path: path.join(dataDir, 'metastore.sqlite') });
    engine = await Engine.open({
      dataDir,
      catalog: metastoreCatalog(metastore),
      segmentStore: new LocalObjectStore(path.join(dataDir, 'objects')),
      logger,
      memtableMaxBytes: 1 << 30,
      memtableMaxAgeMs: 3_600_000,
      walMaxUnflushedBytes: 1024 ** 3,
      idleIndexMs: 3_600_000,
    });
    // two segment files and a memtable, with timestamps interleaved across them
    for (let part = 0; part < 3; part++) {
      const ops = Array.from({ length: 200 }, (_, i) => ({
        index: 'pooled',
        doc: { _line: `part ${part} line ${i} ${i % 3 === 0 ? 'fizz' : 'plain'}`, n: (i * 7 + part) % 50, _ts: 1_700_000_000_000 + ((i * 3 + part * 101) % 600) * 1000 },
      }));
      assert.ok((await writeDocs(engine, ops)).every((o) => o.ok));
      if (part < 2) await engine.flush(['pooled']);
    }
    pool = new QueryPool({ threads: 2, logger });
  });
  after(async () => {
    await pool.close();
    await engine.close();
    await metastore.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const base: SearchRequest = { query: { kind: 'match_all' }, from: 0, size: 10, sort: [], trackTotalHits: true };
  const requests: Array<[string, SearchRequest]> = [
    ['default order', base],
    ['a later page', { ...base, from: 37, size: 25 }],
    ['a word, newest first', { ...base, query: { kind: 'match', field: '_line', text: 'fizz', operator: 'or' }, size: 50 }],
    ['by a number then _doc', { ...base, sort: [{ field: 'n', order: 'asc' }, { field: '_doc', order: 'asc' }], size: 60 }],
    ['by a number descending, after a value', { ...base, sort: [{ field: 'n', order: 'desc' }, { field: '_doc', order: 'desc' }], searchAfter: [25, 4294967296 * 1 + 50], size: 30 }],
    ['capped total', { ...base, trackTotalHits: 100, size: 5 }],
    ['by score', { ...base, query: { kind: 'match', field: '_line', text: 'fizz part', operator: 'or' }, sort: [{ field: '_score', order: 'desc' }], size: 20 }],
  ];

  for (const [name, request] of requests) {
    it(`gives the same answer as a single-threaded search: ${name}`, async () => {
      const targets = engine.searchTargets(['pooled']);
      assert.equal(targets.filter((t) => t.filePath).length, 2, 'two targets are segment files');
      const expected = executeSearch(targets, request);
      const actual = await pool.search(targets, request);
      assert.equal(actual.total, expected.total);
      assert.equal(actual.totalRelation, expected.totalRelation);
      assert.equal(actual.maxScore, expected.maxScore);
      assert.deepEqual(
        actual.hits.map((h) => [h.id, h.sortValues]),
        expected.hits.map((h) => [h.id, h.sortValues]),
      );
    });
  }

  it('stops a query past its deadline and keeps serving', async () => {
    const targets = engine.searchTargets(['pooled']);
    await assert.rejects(pool.search(targets, { ...base, deadlineMs: Date.now() - 1 }), (err: unknown) => {
      assert.ok(err instanceof QueryTimeoutError);
      assert.equal(err.status, 504);
      return true;
    });
    const after = await pool.search(targets, base);
    assert.equal(after.total, 600);
  });

  it('has as many threads as asked, and queues searches beyond them', async () => {
    let queued = 0;
    const waits: number[] = [];
    const single = new QueryPool({
      threads: 1,
      logger,
      events: { ...NO_QUERY_POOL_EVENTS, queued: () => queued++, started: (ns) => waits.push(ns) },
    });
    try {
      assert.equal(single.size, 1);
      const targets = engine.searchTargets(['pooled']);
      const results = await Promise.all(Array.from({ length: 4 }, () => single.search(targets, base)));
      for (const r of results) assert.equal(r.total, 600);
      assert.equal(queued, 3, 'one thread: the other three searches waited');
      assert.equal(waits.length, 4);
    } finally {
      await single.close();
    }
    assert.equal(pool.size, 2);
  });

  /** A one-thread pool that counts the searches it hands to its thread. */
  function countingPool(): { counting: QueryPool; started: () => number } {
    let n = 0;
    const counting = new QueryPool({ threads: 1, logger, events: { ...NO_QUERY_POOL_EVENTS, started: () => n++ } });
    return { counting, started: () => n };
  }

  it('answers a count of a rare word, or a search matching nothing, without a query thread', async () => {
    const { counting, started } = countingPool();
    try {
      const targets = engine.searchTargets(['pooled']);
      const fizz = { kind: 'match', field: '_line', text: 'fizz', operator: 'or' } as const;
      const count = await counting.search(targets, { ...base, query: fizz, size: 0 });
      assert.equal(count.total, executeSearch(targets, { ...base, query: fizz, size: 0 }).total);
      const nothing = await counting.search(targets, { ...base, query: { kind: 'match', field: '_line', text: 'nowhere', operator: 'or' } });
      assert.equal(nothing.total, 0);
      assert.equal(started(), 0, 'both answered on the calling thread');
      // many matches to count, hits of a query without a cheap bound, hits by score, a large page: a query thread's work
      await counting.search(targets, { ...base, size: 0 });
      await counting.search(targets, base);
      await counting.search(targets, { ...base, query: fizz, sort: [{ field: '_score', order: 'desc' }] });
      await counting.search(targets, { ...base, query: fizz, size: 101 });
      assert.equal(started(), 4);
    } finally {
      await counting.close();
    }
  });

  it('answers a small page of the newest hits, or a count, of a query on few postings without a query thread', async () => {
    const { counting, started } = countingPool();
    try {
      const targets = engine.searchTargets(['pooled']);
      const fizz = { kind: 'match', field: '_line', text: 'fizz', operator: 'or' } as const;
      const both: Query = { kind: 'bool', must: [fizz, { kind: 'match', field: '_line', text: 'part', operator: 'or' }], filter: [], should: [], mustNot: [] };
      const pages: SearchRequest[] = [
        { ...base, query: fizz, size: 100 },
        { ...base, query: fizz, from: 40, size: 20, sort: [{ field: '_ts', order: 'asc' }] },
        { ...base, query: both, size: 10, trackTotalHits: 50 },
        { ...base, query: both, size: 0 },
      ];
      for (const request of pages) {
        const here = await counting.search(targets, request);
        const expected = executeSearch(targets, request);
        assert.equal(here.total, expected.total);
        assert.equal(here.totalRelation, expected.totalRelation);
        assert.deepEqual(
          here.hits.map((h) => [h.id, h.sortValues, h.source]),
          expected.hits.map((h) => [h.id, h.sortValues, h.source]),
        );
        assert.ok(here.total > 0);
      }
      assert.equal(started(), 0, 'answered on the calling thread');
    } finally {
      await counting.close();
    }
  });

  it('runs queries concurrently on its threads', async () => {
    const targets = engine.searchTargets(['pooled']);
    const results = await Promise.all(Array.from({ length: 10 }, () => pool.search(targets, base)));
    for (const r of results) assert.equal(r.total, 600);
  });

  it('keeps on the calling thread what reads few postings, by their document frequencies, and sends the rest', () => {
    // 20,000 docs: more matches than a count may have by the match bound alone
    const docs = Array.from({ length: 20_000 }, (_, i) => ({ n: `d${i}`, ts: 1_700_000_000_000 + i, fields: [text('_line', `common other ${i % 2 === 0 ? 'even' : 'odd'}`)] }));
    const targets = [{ index: 'big', segment: segment('big', docs) }];
    const w = (t: string): Query => ({ kind: 'match', field: '_line', text: t, operator: 'or' });
    const both: Query = { kind: 'bool', must: [w('common')], filter: [w('other')], should: [], mustNot: [] };
    const count = (query: Query): SearchRequest => ({ ...base, query, size: 0 });
    assert.equal(runsHere(targets, count(both)), true, 'a count of two lists of 20,000');
    assert.equal(runsHere(targets, { ...base, query: both, size: 100 }), true, 'the newest 100 of them');
    assert.equal(runsHere(targets, { ...base, query: both, sort: [{ field: '_ts', order: 'asc' }] }), true, 'the oldest 10');
    assert.equal(runsHere(targets, { ...base, query: both, size: 101 }), false, 'a page over 100 hits');
    assert.equal(runsHere(targets, { ...base, query: both, sort: [{ field: '_score', order: 'desc' }] }), false, 'hits by score');
    assert.equal(runsHere(targets, count({ kind: 'phrase', field: '_line', text: 'common other', slop: 0 })), true, 'a phrase of two such lists');
    assert.equal(runsHere(targets, count({ kind: 'phrase', field: '_line', text: 'common other common other common other common', slop: 0 })), false, 'a phrase of seven');
    assert.equal(runsHere(targets, count({ ...both, mustNot: [w('even')] })), false, 'a negation');
    assert.equal(runsHere(targets, count({ kind: 'match_all' })), false, 'every doc');
    // 14 lists of 20,000 docs: more postings than is cheap
    assert.equal(runsHere(targets, count({ kind: 'bool', must: Array.from({ length: 14 }, () => w('common')), filter: [], should: [], mustNot: [] })), false, 'many long lists');
  });
});
