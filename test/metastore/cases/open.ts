import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { openMetastore, type MetastoreConfig } from '../../../src/metastore/index.js';
import type { DefineTest } from '../dialects.js';

/** A raw connection to the same store, to look at or tamper with what the metastore wrote. */
function rawDb(config: MetastoreConfig): Kysely<Record<string, Record<string, unknown>>> {
  if (config.kind === 'sqlite') return new Kysely({ dialect: new SqliteDialect({ database: new Database(config.path) }) });
  const options = `-c search_path=${config.schema ?? 'public'}`;
  return new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: config.url, max: 1, options }) }) });
}

async function appliedMigrations(config: MetastoreConfig): Promise<string[]> {
  const raw = rawDb(config);
  try {
    const result = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(raw);
    return result.rows.map((r) => r.name);
  } finally {
    await raw.destroy();
  }
}

export function openCases(it: DefineTest): void {
  it('data survives close and reopen; migrations run once', async (ms, config) => {
    await ms.indexes.createIndex({ name: 'kept', uuid: 'u1', createdAtMs: 1_700_000_000_000, settings: {}, mappings: {} });
    await ms.kv.put('k', { v: 1 });
    await ms.close();
    const applied = await appliedMigrations(config);
    assert.equal(applied[0], '0001_initial');

    const again = await openMetastore(config);
    try {
      assert.equal((await again.indexes.getIndex('kept'))?.createdAtMs, 1_700_000_000_000);
      assert.deepEqual(await again.kv.get('k'), { v: 1 });
      await again.ping();
    } finally {
      await again.close();
    }
    assert.deepEqual(await appliedMigrations(config), applied);
  });

  it('a database migrated by a newer version is refused', async (ms, config) => {
    await ms.close();
    const raw = rawDb(config);
    try {
      await sql`insert into kysely_migration (name, timestamp) values ('9999_future', '2030-01-01T00:00:00.000Z')`.execute(raw);
    } finally {
      await raw.destroy();
    }
    await assert.rejects(openMetastore(config), /metastore migration failed/);
  });

  it('concurrent openers of a fresh store all succeed', async (_ms, config) => {
    const fresh: MetastoreConfig =
      config.kind === 'sqlite' ? { kind: 'sqlite', path: join(config.path, '..', 'fresh.db') } : { ...config, schema: `${config.schema ?? 'public'}_fresh` };
    const opened = await Promise.all([openMetastore(fresh), openMetastore(fresh), openMetastore(fresh)]);
    try {
      await opened[0]!.indexes.createIndex({ name: 'x', uuid: 'u', createdAtMs: 1, settings: {}, mappings: {} });
      assert.equal((await opened[2]!.indexes.listIndexes()).length, 1);
    } finally {
      await Promise.all(opened.map((m) => m.close()));
    }
  });
}
