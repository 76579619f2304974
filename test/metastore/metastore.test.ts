/**
 * Every metastore behaviour, run against SQLite and against a real PostgreSQL server started
 * once for this file. The cases live in cases/, one file per repository.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openMetastore } from '../../src/metastore/index.js';
import { aliasCases } from './cases/aliases.js';
import { indexCases } from './cases/indexes.js';
import { kvCases } from './cases/kv.js';
import { openCases } from './cases/open.js';
import { segmentCases } from './cases/segments.js';
import { templateCases } from './cases/templates.js';
import { eachDialect } from './dialects.js';

/** tests of a group touch separate stores, so they may overlap their waits on the database */
const PARALLEL = { concurrency: 4 };

eachDialect((it) => {
  describe('open and migrate', PARALLEL, () => openCases(it));
  describe('indexes', PARALLEL, () => indexCases(it));
  describe('segments', PARALLEL, () => segmentCases(it));
  describe('aliases', PARALLEL, () => aliasCases(it));
  describe('templates', PARALLEL, () => templateCases(it));
  describe('kv', PARALLEL, () => kvCases(it));
});

test('the sqlite store keeps a write-ahead journal', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-metastore-open-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'nested', 'data', 'metastore.db');
  const ms = await openMetastore({ kind: 'sqlite', path });
  await ms.close();
  const raw = new Database(path);
  try {
    assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
  } finally {
    raw.close();
  }
});

test('an unsafe postgres schema name is refused before connecting', async () => {
  await assert.rejects(openMetastore({ kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none', schema: 'x; drop table indexes' }), RangeError);
});
