/**
 * Kysely's SQLite dialect with the writes off the event loop. Statements that change the file,
 * and every statement of a transaction, run on the writer thread (writer-thread.ts), whose
 * connection does the fsyncs of `synchronous = FULL`; the event loop goes on while a commit
 * waits for the disk, and a commit's promise still resolves only once the commit is durable.
 * Reads outside a transaction run at once on a read-only connection of the main thread: in WAL
 * mode a reader neither waits for the writer nor fsyncs, and it sees every commit that has
 * resolved. An in-memory database cannot be shared between connections: there, reads go to the
 * writer thread too.
 */
import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import { openSqliteConnection } from './connection.js';
import type { StatementResult } from './messages.js';
import { SqliteWriter } from './writer-client.js';

export class ThreadedSqliteDialect implements Dialect {
  constructor(private readonly path: string) {}

  createDriver(): Driver {
    return new ThreadedSqliteDriver(this.path);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new TransactionalDdlAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * SQLite can change its schema inside a transaction, which Kysely's adapter does not claim: with
 * the claim, the migrator runs its steps in one transaction, and BEGIN IMMEDIATE (below) makes
 * concurrent openers of a fresh file take turns instead of racing step by step.
 */
class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Statements prepared on the reader, by text; past this many the cache starts again. */
const READ_CACHE_MAX = 256;

class ThreadedSqliteDriver implements Driver {
  private writer: SqliteWriter | undefined;
  private reader: Database.Database | undefined;
  /** held by a transaction from its BEGIN to its end, and by each write outside one */
  private readonly writeLock = new FifoLock();
  /** read-only statements prepared on the reader, or null for one the writer must run */
  private readonly prepared = new Map<string, Database.Statement | null>();

  constructor(private readonly path: string) {}

  async init(): Promise<void> {
    // the writer first: it creates the file and puts it in WAL mode
    this.writer = await SqliteWriter.open(this.path);
    if (this.path === ':memory:') return;
    try {
      this.reader = openSqliteConnection(this.path, 'reader');
    } catch (err) {
      await this.writer.close();
      throw err;
    }
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ThreadedSqliteConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as ThreadedSqliteConnection;
    await this.writeLock.acquire();
    conn.inTransaction = true;
    try {
      // the write lock from the start: a transaction that read first and then wrote would fail
      // (SQLITE_BUSY_SNAPSHOT) whenever another process committed in between
      await this.onWriter('begin immediate', []);
    } catch (err) {
      conn.inTransaction = false;
      this.writeLock.release();
      throw err;
    }
  }

  /** A commit that fails leaves the transaction to the rollback Kysely sends next. */
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.onWriter('commit', []);
    this.endTransaction(connection as ThreadedSqliteConnection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.writer!.rollback();
    } finally {
      this.endTransaction(connection as ThreadedSqliteConnection);
    }
  }

  private endTransaction(conn: ThreadedSqliteConnection): void {
    conn.inTransaction = false;
    this.writeLock.release();
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async releaseConnection(): Promise<void> {
    // connections are views of the driver: nothing to give back
  }

  async destroy(): Promise<void> {
    // the reader first: the writer, closing last, checkpoints the log into the file
    this.reader?.close();
    this.reader = undefined;
    await this.writer?.close();
  }

  /** Runs a statement: on the reader when it only reads and no transaction is open on `conn`. */
  async execute(conn: ThreadedSqliteConnection, sql: string, parameters: readonly unknown[]): Promise<StatementResult> {
    if (conn.inTransaction) return this.onWriter(sql, parameters);
    const statement = this.readStatement(sql);
    if (statement) return { rows: statement.all(parameters as unknown[]) };
    await this.writeLock.acquire();
    try {
      return await this.onWriter(sql, parameters);
    } finally {
      this.writeLock.release();
    }
  }

  private onWriter(sql: string, parameters: readonly unknown[]): Promise<StatementResult> {
    if (!this.writer) throw new Error('the metastore is not open');
    return this.writer.execute(sql, parameters);
  }

  /** The statement prepared on the reader when it only reads, otherwise undefined. */
  private readStatement(sql: string): Database.Statement | undefined {
    if (!this.reader) return undefined;
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      if (this.prepared.size >= READ_CACHE_MAX) this.prepared.clear();
      try {
        const candidate = this.reader.prepare(sql);
        // `readonly`, not `reader`: an insert with a `returning` clause gives rows and writes
        statement = candidate.readonly && candidate.reader ? candidate : null;
      } catch {
        // e.g. a table a migration is about to create: the writer runs it and reports any error
        statement = null;
      }
      // a statement naming a table not yet created may read later: only readable ones are kept
      if (statement) this.prepared.set(sql, statement);
    }
    return statement ?? undefined;
  }
}

class ThreadedSqliteConnection implements DatabaseConnection {
  inTransaction = false;

  constructor(private readonly driver: ThreadedSqliteDriver) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, changes, lastInsertRowid } = await this.driver.execute(this, compiledQuery.sql, compiledQuery.parameters);
    if (changes === undefined) return { rows: rows as R[] };
    return {
      rows: [],
      numAffectedRows: BigInt(changes),
      ...(lastInsertRowid !== undefined ? { insertId: BigInt(lastInsertRowid) } : {}),
    };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // the catalog's results are small: streamed as one chunk
    yield await this.executeQuery<R>(compiledQuery);
  }
}

/** Savepoint names come from the caller of Kysely: quoted as identifiers. */
function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A lock granted in the order asked for. */
class FifoLock {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}
