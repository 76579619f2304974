/**
 * Node membership: each process upserts its row with every heartbeat, which pushes its lease
 * expiry forward; a row whose lease the database clock has passed is a dead node. Rows stay after
 * a node dies, so that what it held can be found.
 */
import type { Kysely } from 'kysely';
import { dbNowMs } from './db-clock.js';
import type { MetastoreDialect } from './metastore.js';
import type { MetastoreSchema, NodesTable } from './schema.js';
import { compareText, int, parseJsonObject, toJsonText, type JsonObject } from './values.js';

export interface NodeHeartbeat {
  id: string;
  name: string;
  roles: readonly string[];
  url: string;
  /** figures shown by `_cat/nodes` for this node (pid, memory, load) */
  stats: JsonObject;
  startedAtMs: number;
  leaseMs: number;
  /** the node hands its indexes over to others and takes no new ones */
  draining?: boolean;
}

export interface NodeRecord {
  id: string;
  name: string;
  roles: string[];
  url: string;
  stats: JsonObject;
  startedAtMs: number;
  heartbeatAtMs: number;
  leaseExpiresAtMs: number;
  /** its lease had not expired when the database answered */
  live: boolean;
  /** it hands its indexes over to others and takes no new ones (see setDraining) */
  draining: boolean;
}

export class NodeRepository {
  constructor(
    private readonly db: Kysely<MetastoreSchema>,
    private readonly dialect: MetastoreDialect,
  ) {}

  /** Registers the node or renews its row; returns the new lease expiry (database clock). */
  async heartbeat(node: NodeHeartbeat): Promise<number> {
    const now = dbNowMs(this.dialect);
    const row = await this.db
      .insertInto('nodes')
      .values({
        id: node.id,
        name: node.name,
        roles: node.roles.join(','),
        url: node.url,
        stats: toJsonText(node.stats, 'node stats'),
        started_at_ms: int(node.startedAtMs, 'startedAtMs'),
        heartbeat_at_ms: now,
        lease_expires_at_ms: (eb) => eb(now, '+', int(node.leaseMs, 'leaseMs')),
        draining: node.draining === true ? 1 : 0,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          roles: eb.ref('excluded.roles'),
          url: eb.ref('excluded.url'),
          stats: eb.ref('excluded.stats'),
          started_at_ms: eb.ref('excluded.started_at_ms'),
          heartbeat_at_ms: eb.ref('excluded.heartbeat_at_ms'),
          lease_expires_at_ms: eb.ref('excluded.lease_expires_at_ms'),
          draining: eb.ref('excluded.draining'),
        })),
      )
      .returning('lease_expires_at_ms')
      .executeTakeFirstOrThrow();
    return Number(row.lease_expires_at_ms);
  }

  /** Ends the node's lease now: it leaves the live set at once (a graceful stop). */
  async leave(id: string): Promise<void> {
    await this.db.updateTable('nodes').set({ lease_expires_at_ms: dbNowMs(this.dialect) }).where('id', '=', id).execute();
  }

  /**
   * Marks the node as draining (or not) at once; its heartbeats carry the same flag, so that a
   * node started again under the same id takes indexes again.
   */
  async setDraining(id: string, draining: boolean): Promise<void> {
    await this.db
      .updateTable('nodes')
      .set({ draining: draining ? 1 : 0 })
      .where('id', '=', id)
      .execute();
  }

  /** Every node ever registered, live or dead, by id. */
  async listNodes(): Promise<NodeRecord[]> {
    const rows = await this.db
      .selectFrom('nodes')
      .selectAll()
      .select(dbNowMs(this.dialect).as('now_ms'))
      .execute();
    return rows.sort((a, b) => compareText(a.id, b.id)).map((r) => toNodeRecord(r, Number(r.now_ms)));
  }

  async liveNodes(): Promise<NodeRecord[]> {
    return (await this.listNodes()).filter((n) => n.live);
  }
}

function toNodeRecord(row: NodesTable, nowMs: number): NodeRecord {
  const leaseExpiresAtMs = Number(row.lease_expires_at_ms);
  return {
    id: row.id,
    name: row.name,
    roles: row.roles === '' ? [] : row.roles.split(','),
    url: row.url,
    stats: parseJsonObject(row.stats, `stats of node [${row.id}]`),
    startedAtMs: Number(row.started_at_ms),
    heartbeatAtMs: Number(row.heartbeat_at_ms),
    leaseExpiresAtMs,
    live: leaseExpiresAtMs > nowMs,
    draining: Number(row.draining) === 1,
  };
}
