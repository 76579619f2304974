/**
 * The organisation: one account row (with the card the service keeps: brand, last four digits,
 * expiry; never a card number), users with one role each (by name, as default roles have no
 * row), custom roles, and invoices. Permissions and index patterns are JSON text.
 */
import { PostgresIntrospector, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';

export const org: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    const identity =
      db.introspection instanceof PostgresIntrospector
        ? (c: ColumnDefinitionBuilder) => c.primaryKey().generatedByDefaultAsIdentity()
        : (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement();

    await db.schema
      .createTable('org_account')
      // one account per service: the key is always 1
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      /** JSON `{holder, brand, last4, expMonth, expYear, updatedAt}` or null */
      .addColumn('card', 'text')
      .execute();

    await db.schema
      .createTable('org_users')
      .addColumn('id', 'integer', identity)
      .addColumn('subject', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('invited_by', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('org_users_by_role').on('org_users').column('role').execute();

    await db.schema
      .createTable('org_roles')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('permissions', 'text', (c) => c.notNull())
      .addColumn('indexes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('org_invoices')
      .addColumn('id', 'integer', identity)
      .addColumn('number', 'text', (c) => c.notNull().unique())
      .addColumn('issued_on', 'text', (c) => c.notNull())
      .addColumn('amount_cents', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ['org_invoices', 'org_roles', 'org_users', 'org_account']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
