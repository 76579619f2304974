/**
 * Membership of the processes of one cluster: a row per node renewed by its heartbeat, a row per
 * lease (the coordinator's: one holder at a time, taken by a conditional update), and the
 * placement of each index on a cache node. Times are epoch milliseconds of the database's clock.
 */
import type { Kysely, Migration } from 'kysely';

export const cluster: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('nodes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('roles', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('stats', 'text', (c) => c.notNull())
      .addColumn('started_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('heartbeat_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('lease_expires_at_ms', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('epoch', 'bigint', (c) => c.notNull())
      .addColumn('acquired_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('placements')
      .addColumn('index_name', 'text', (c) => c.primaryKey())
      .addColumn('node_id', 'text', (c) => c.notNull())
      .addColumn('lease_epoch', 'bigint', (c) => c.notNull())
      .addColumn('placed_at_ms', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('placements_by_node').on('placements').column('node_id').execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ['placements', 'leases', 'nodes']) await db.schema.dropTable(table).execute();
  },
};
