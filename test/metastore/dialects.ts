/**
 * Runs a metastore test body once per dialect: SQLite in a temp dir and a real PostgreSQL server
 * started for this test file. Each test gets a fresh, migrated metastore (its own SQLite file, or
 * its own schema in the PostgreSQL database created for the file).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMetastore, type Metastore, type MetastoreConfig } from '../../src/metastore/index.js';
import { postgresUnavailable, startPostgres, type PostgresServer } from '../support/postgres.js';

export type MetastoreTest = (ms: Metastore, config: MetastoreConfig) => Promise<void>;
export type DefineTest = (name: string, body: MetastoreTest) => void;

/** Dialect suites run side by side; every test has its own store, so nothing is shared. */
export function eachDialect(define: (it: DefineTest) => void): void {
  describe('metastore', { concurrency: 2 }, () => {
    sqliteSuite(define);
    postgresSuite(define);
  });
}

function sqliteSuite(define: (it: DefineTest) => void): void {
  describe('sqlite', () => {
    let dir = '';
    let n = 0;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'svc-metastore-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));
    define((name, body) =>
      test(name, async () => {
        const config: MetastoreConfig = { kind: 'sqlite', path: join(dir, `t${++n}`, 'metastore.db') };
        await run(config, body);
      }),
    );
  });
}

function postgresSuite(define: (it: DefineTest) => void): void {
  describe('postgres', () => {
    const unavailable = postgresUnavailable();
    let server: PostgresServer | undefined;
    let n = 0;
    before(async () => {
      if (unavailable === undefined) server = await startPostgres();
    });
    after(async () => {
      await server?.stop();
    });
    define((name, body) =>
      test(name, async (t) => {
        if (unavailable !== undefined) {
          if (process.env.CI) assert.fail(`postgresql is required when CI is set: ${unavailable}`);
          t.skip(`postgresql not available: ${unavailable}`);
          return;
        }
        await run({ kind: 'postgres', url: server!.url, schema: `t${++n}` }, body);
      }),
    );
  });
}

async function run(config: MetastoreConfig, body: MetastoreTest): Promise<void> {
  const ms = await openMetastore(config);
  try {
    await body(ms, config);
  } finally {
    await ms.close();
  }
}
