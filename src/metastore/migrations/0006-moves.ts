/**
 * Moves of live indexes between cache nodes: a placement may carry the node the coordinator
 * asked its owner to hand it over to (`moving_to`), and a node row says whether the node is
 * draining (its indexes are handed over to others and nothing new is placed on it).
 */
import type { Kysely, Migration } from 'kysely';

export const moves: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('placements').addColumn('moving_to', 'text').execute();
    await db.schema
      .alterTable('nodes')
      .addColumn('draining', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('nodes').dropColumn('draining').execute();
    await db.schema.alterTable('placements').dropColumn('moving_to').execute();
  },
};
