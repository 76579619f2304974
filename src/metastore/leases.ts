/**
 * Named leases held by one node at a time (the coordinator's), decided by the database: a node
 * acquires or renews with one conditional upsert that succeeds only when it already holds the
 * lease or the lease has expired, so of two contenders exactly one wins. The epoch increases
 * each time the lease changes hands and fences what a holder writes under it.
 */
import { sql, type Kysely } from 'kysely';
import { dbNowMs } from './db-clock.js';
import type { MetastoreDialect } from './metastore.js';
import type { LeasesTable, MetastoreSchema } from './schema.js';
import { int } from './values.js';

export interface LeaseState {
  name: string;
  holder: string;
  epoch: number;
  acquiredAtMs: number;
  expiresAtMs: number;
  /** the lease had not expired when the database answered */
  live: boolean;
}

/** The outcome of a try: `held` when the caller holds the lease now; `lease` is its state either way. */
export interface LeaseAttempt {
  held: boolean;
  lease: LeaseState;
}

type LeaseRow = LeasesTable & { now_ms: number };

export class LeaseRepository {
  constructor(
    private readonly db: Kysely<MetastoreSchema>,
    private readonly dialect: MetastoreDialect,
  ) {}

  /** Acquires the lease when free or expired, renews it when `holder` has it; for `ttlMs` from now. */
  async tryAcquire(name: string, holder: string, ttlMs: number): Promise<LeaseAttempt> {
    const now = dbNowMs(this.dialect);
    const ttl = int(ttlMs, 'ttlMs');
    const won = await sql<LeaseRow>`
      insert into leases (name, holder, epoch, acquired_at_ms, expires_at_ms)
      values (${name}, ${holder}, 1, ${now}, ${now} + cast(${ttl} as bigint))
      on conflict (name) do update set
        holder = excluded.holder,
        epoch = case when leases.holder = excluded.holder then leases.epoch else leases.epoch + 1 end,
        acquired_at_ms = case when leases.holder = excluded.holder then leases.acquired_at_ms else excluded.acquired_at_ms end,
        expires_at_ms = excluded.expires_at_ms
      where leases.holder = excluded.holder or leases.expires_at_ms <= excluded.acquired_at_ms
      returning name, holder, epoch, acquired_at_ms, expires_at_ms, ${now} as now_ms`.execute(this.db);
    const row = won.rows[0];
    if (row !== undefined) return { held: true, lease: toLeaseState(row) };
    const current = await this.get(name);
    // the row exists (the upsert met a conflict), unless it was deleted in between
    if (current === undefined) return this.tryAcquire(name, holder, ttlMs);
    return { held: false, lease: current };
  }

  /** Gives the lease up at once when `holder` has it, so another node need not wait for expiry. */
  async release(name: string, holder: string): Promise<void> {
    await this.db
      .updateTable('leases')
      .set({ expires_at_ms: dbNowMs(this.dialect) })
      .where('name', '=', name)
      .where('holder', '=', holder)
      .execute();
  }

  async get(name: string): Promise<LeaseState | undefined> {
    const row = await this.db
      .selectFrom('leases')
      .selectAll()
      .select(dbNowMs(this.dialect).as('now_ms'))
      .where('name', '=', name)
      .executeTakeFirst();
    return row === undefined ? undefined : toLeaseState(row);
  }
}

function toLeaseState(row: LeaseRow): LeaseState {
  const expiresAtMs = Number(row.expires_at_ms);
  return {
    name: row.name,
    holder: row.holder,
    epoch: Number(row.epoch),
    acquiredAtMs: Number(row.acquired_at_ms),
    expiresAtMs,
    live: expiresAtMs > Number(row.now_ms),
  };
}
