/**
 * The database's clock in epoch milliseconds, as an SQL expression. Heartbeats and leases are
 * stamped and compared with it, so that processes on machines whose clocks disagree still agree
 * on who is alive and who holds a lease.
 */
import { sql, type RawBuilder } from 'kysely';
import type { MetastoreDialect } from './metastore.js';

export function dbNowMs(dialect: MetastoreDialect): RawBuilder<number> {
  return dialect === 'postgres'
    ? sql<number>`floor(extract(epoch from clock_timestamp()) * 1000)::bigint`
    : sql<number>`cast((julianday('now') - 2440587.5) * 86400000 as integer)`;
}
