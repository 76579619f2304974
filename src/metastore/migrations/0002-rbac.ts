/**
 * RBAC records: roles, API keys (hash and lookup prefix only; revoked, never deleted) and role
 * mappings. Ids are integers the database assigns and never reuses. Role grants and a mapping's
 * role ids are JSON text; API keys and mappings refer to roles by id, so a rename keeps them.
 */
import { PostgresIntrospector, sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';

export const rbac: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // SQLite's AUTOINCREMENT and PostgreSQL's identity both never hand out an id twice
    const identity =
      db.introspection instanceof PostgresIntrospector
        ? (c: ColumnDefinitionBuilder) => c.primaryKey().generatedByDefaultAsIdentity()
        : (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement();

    await db.schema
      .createTable('roles')
      .addColumn('id', 'integer', identity)
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('database_actions', 'text', (c) => c.notNull())
      .addColumn('index_grants', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'integer', identity)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('role_id', 'integer', (c) => c.notNull())
      .addColumn('key_prefix', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('api_keys_by_prefix').on('api_keys').column('key_prefix').execute();
    await db.schema.createIndex('api_keys_by_role').on('api_keys').column('role_id').execute();
    // names are unique among keys in use; a revoked key's name may be given again
    await db.schema
      .createIndex('api_keys_active_name')
      .on('api_keys')
      .column('name')
      .unique()
      .where(sql.ref('revoked_at'), 'is', null)
      .execute();

    await db.schema
      .createTable('role_mappings')
      .addColumn('id', 'integer', identity)
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('role_ids', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ['role_mappings', 'api_keys', 'roles']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
