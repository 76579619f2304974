/**
 * Schema migrations, in code, one list for both dialects. Each file holds one step; a new step
 * is a new file added at the end of MIGRATIONS under a name that sorts after the others. Steps
 * never change once released: a database remembers which ones ran.
 */
import { Migrator, type Kysely, type Migration } from 'kysely';
import { initial } from './0001-initial.js';
import { rbac } from './0002-rbac.js';
import { org } from './0003-org.js';
import { deletedDocs } from './0004-deleted-docs.js';
import { cluster } from './0005-cluster.js';
import { moves } from './0006-moves.js';

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_initial': initial,
  '0002_rbac': rbac,
  '0003_org': org,
  '0004_deleted_docs': deletedDocs,
  '0005_cluster': cluster,
  '0006_moves': moves,
};

/**
 * Runs every step not yet applied; concurrent callers are serialized by Kysely's migration lock.
 * `schema` (PostgreSQL) pins the bookkeeping tables there: without it Kysely would take such
 * tables in any schema of the database for its own.
 */
export async function migrateToLatest(db: Kysely<unknown>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...MIGRATIONS }) },
    ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(failed ? `metastore migration ${failed} failed: ${why}` : `metastore migration failed: ${why}`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}
