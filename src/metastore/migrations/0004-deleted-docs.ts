/**
 * Deleted documents of a segment (deletes by `_id` and documents replaced by a write with the
 * same `_id`), as its deleted `_lid`s: ascending, delta-coded as LEB128 varints, base64 text;
 * null when it has none. Compaction drops such documents from the merged file.
 */
import type { Kysely, Migration } from 'kysely';

export const deletedDocs: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('segments').addColumn('deleted_lids', 'text').execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('segments').dropColumn('deleted_lids').execute();
  },
};
