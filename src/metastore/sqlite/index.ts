/**
 * The SQLite catalog's connections: the one that writes on a thread of its own (its commits
 * fsync), reads on the main thread; a Kysely dialect over both.
 */
export { ThreadedSqliteDialect } from './sqlite-dialect.js';
