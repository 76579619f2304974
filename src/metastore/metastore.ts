/**
 * Opening the metastore on either dialect: the Kysely instance, connection settings, and the
 * migrations run before any repository is handed out.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { AliasRepository } from './aliases.js';
import { IndexRepository } from './indexes.js';
import { KvRepository } from './kv.js';
import { LeaseRepository } from './leases.js';
import { NodeRepository } from './nodes.js';
import { PlacementRepository } from './placements.js';
import { migrateToLatest } from './migrations/index.js';
import { OrgStore } from './org-store.js';
import { RbacStore } from './rbac-store.js';
import type { MetastoreSchema } from './schema.js';
import { SegmentRepository } from './segments.js';
import { ThreadedSqliteDialect } from './sqlite/index.js';
import { TemplateRepository } from './templates.js';

export type MetastoreConfig =
  | { kind: 'sqlite'; /** database file, created with its directory when missing */ path: string }
  | {
      kind: 'postgres';
      /** postgres://user:password@host:port/database */
      url: string;
      /** schema holding the tables, created when missing (default `public`) */
      schema?: string;
      maxConnections?: number;
    };

export type MetastoreDialect = MetastoreConfig['kind'];

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export class Metastore {
  readonly indexes: IndexRepository;
  readonly segments: SegmentRepository;
  readonly aliases: AliasRepository;
  readonly templates: TemplateRepository;
  readonly kv: KvRepository;
  readonly rbac: RbacStore;
  readonly org: OrgStore;
  readonly nodes: NodeRepository;
  readonly leases: LeaseRepository;
  readonly placements: PlacementRepository;

  constructor(
    private readonly db: Kysely<MetastoreSchema>,
    readonly dialect: MetastoreDialect,
  ) {
    this.indexes = new IndexRepository(db);
    this.segments = new SegmentRepository(db);
    this.aliases = new AliasRepository(db);
    this.templates = new TemplateRepository(db);
    this.kv = new KvRepository(db);
    this.rbac = new RbacStore(db);
    this.org = new OrgStore(db);
    this.nodes = new NodeRepository(db, dialect);
    this.leases = new LeaseRepository(db, dialect);
    this.placements = new PlacementRepository(db, dialect);
  }

  /** Resolves when the database answers a trivial query (health checks). */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

/** Opens the metastore and brings its schema to the latest migration. */
export async function openMetastore(config: MetastoreConfig): Promise<Metastore> {
  const schema = config.kind === 'postgres' ? (config.schema ?? 'public') : undefined;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new RangeError(`invalid metastore schema name [${schema}]`);
  const db = config.kind === 'sqlite' ? sqliteDb(config.path) : postgresDb(config.url, schema!, config.maxConnections ?? 10);
  try {
    if (config.kind === 'sqlite') await migrateSqlite(db as Kysely<unknown>);
    else await migrateToLatest(db as Kysely<unknown>, schema);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return new Metastore(db, config.kind);
}

/**
 * Kysely has no migration lock on SQLite: the steps run in one immediate transaction, so openers
 * of a fresh file take turns, but its bookkeeping tables are created before it, and there two
 * openers race: the loser fails on a busy database or on tables the winner just created, and its
 * retry then finds them.
 */
async function migrateSqlite(db: Kysely<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await migrateToLatest(db);
      return;
    } catch (err) {
      if (attempt >= 5 || !isMigrationRace(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

function isMigrationRace(err: unknown): boolean {
  const cause = err instanceof Error ? err.cause : undefined;
  if (typeof cause !== 'object' || cause === null) return false;
  const code = 'code' in cause ? String(cause.code) : '';
  const message = cause instanceof Error ? cause.message : '';
  return code.startsWith('SQLITE_BUSY') || /already exists|UNIQUE constraint failed: kysely_migration/.test(message);
}

/** Writes (and their fsyncs) run on a thread of their own: see sqlite/sqlite-dialect.ts. */
function sqliteDb(path: string): Kysely<MetastoreSchema> {
  return new Kysely<MetastoreSchema>({ dialect: new ThreadedSqliteDialect(path) });
}

function postgresDb(url: string, schema: string, maxConnections: number): Kysely<MetastoreSchema> {
  // bigint columns (int8) hold epoch milliseconds and counts: read them as numbers, refusing any
  // that a number cannot hold exactly; the override is per pool, not process-wide
  const types = new pg.TypeOverrides();
  types.setTypeParser(pg.types.builtins.INT8, (text: string) => {
    const n = Number(text);
    if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${text} does not fit a javascript number`);
    return n;
  });
  // every connection resolves unqualified table names in the one schema, whatever the server's
  // default search_path, so tables and migration bookkeeping always land together
  const pool = new pg.Pool({ connectionString: url, max: maxConnections, types, options: `-c search_path=${schema}` });
  // an idle connection dropped by the server emits 'error'; the next query reports the failure
  pool.on('error', () => undefined);
  return new Kysely<MetastoreSchema>({ dialect: new PostgresDialect({ pool }) });
}
