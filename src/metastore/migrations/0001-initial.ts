/**
 * The catalog tables. Only types both dialects share: text, integer, bigint; JSON is text, so
 * nothing depends on PostgreSQL's jsonb or SQLite's JSON functions.
 */
import type { Kysely, Migration } from 'kysely';

export const initial: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('indexes')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('uuid', 'text', (c) => c.notNull().unique())
      .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('mappings', 'text', (c) => c.notNull())
      .addColumn('segments_generation', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable('segments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('index_name', 'text', (c) => c.notNull())
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('num_docs', 'bigint', (c) => c.notNull())
      .addColumn('min_ts', 'bigint', (c) => c.notNull())
      .addColumn('max_ts', 'bigint', (c) => c.notNull())
      .addColumn('max_lid', 'bigint', (c) => c.notNull())
      .addColumn('size_bytes', 'bigint', (c) => c.notNull())
      .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at_ms', 'bigint')
      .execute();
    await db.schema.createIndex('segments_by_index').on('segments').columns(['index_name', 'deleted_at_ms']).execute();
    await db.schema.createIndex('segments_by_deleted').on('segments').column('deleted_at_ms').execute();

    await db.schema
      .createTable('aliases')
      .addColumn('alias', 'text', (c) => c.notNull())
      .addColumn('index_name', 'text', (c) => c.notNull())
      .addColumn('is_write_index', 'integer')
      .addColumn('filter', 'text')
      .addColumn('routing', 'text')
      .addPrimaryKeyConstraint('aliases_pk', ['alias', 'index_name'])
      .execute();
    await db.schema.createIndex('aliases_by_index').on('aliases').column('index_name').execute();

    await db.schema
      .createTable('templates')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('index_patterns', 'text', (c) => c.notNull())
      .addColumn('template_order', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('body', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ['settings', 'templates', 'aliases', 'segments', 'indexes']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
