/**
 * Which cache node holds each index. Only the holder of the coordinator lease writes here: every
 * change runs in a transaction that first checks, on the lease row, that the writer still holds
 * a live lease (on PostgreSQL the row is locked, so a takeover waits for the change to commit).
 */
import type { Kysely } from 'kysely';
import { dbNowMs } from './db-clock.js';
import type { MetastoreDialect } from './metastore.js';
import type { MetastoreSchema } from './schema.js';
import { compareText } from './values.js';

export interface PlacementRecord {
  index: string;
  nodeId: string;
  leaseEpoch: number;
  placedAtMs: number;
}

export interface PlacementChange {
  /** indexes without a placement, each with the node chosen for it */
  place: ReadonlyArray<{ index: string; nodeId: string }>;
  /** placements to drop (their index no longer exists) */
  remove: readonly string[];
  /** indexes to move from a node (that died) to another; a placement changed meanwhile stays */
  move?: ReadonlyArray<{ index: string; from: string; nodeId: string }>;
}

export class PlacementRepository {
  constructor(
    private readonly db: Kysely<MetastoreSchema>,
    private readonly dialect: MetastoreDialect,
  ) {}

  /** Every placement, by index name. */
  async listPlacements(): Promise<PlacementRecord[]> {
    const rows = await this.db.selectFrom('placements').selectAll().execute();
    return rows
      .sort((a, b) => compareText(a.index_name, b.index_name))
      .map((r) => ({ index: r.index_name, nodeId: r.node_id, leaseEpoch: Number(r.lease_epoch), placedAtMs: Number(r.placed_at_ms) }));
  }

  /**
   * Applies the change when `holder` holds the live lease `leaseName`; an index placed meanwhile
   * keeps its placement. False, with nothing written, when the lease is not held.
   */
  async applyAsLeaseHolder(leaseName: string, holder: string, change: PlacementChange): Promise<boolean> {
    const now = dbNowMs(this.dialect);
    return this.db.transaction().execute(async (trx) => {
      const lease = await trx
        .selectFrom('leases')
        .select(['holder', 'epoch', 'expires_at_ms'])
        .select(now.as('now_ms'))
        .where('name', '=', leaseName)
        .$if(this.dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (lease === undefined || lease.holder !== holder || Number(lease.expires_at_ms) <= Number(lease.now_ms)) return false;
      if (change.remove.length > 0) await trx.deleteFrom('placements').where('index_name', 'in', [...change.remove]).execute();
      for (const { index, nodeId } of change.place) {
        await trx
          .insertInto('placements')
          .values({ index_name: index, node_id: nodeId, lease_epoch: Number(lease.epoch), placed_at_ms: now })
          .onConflict((oc) => oc.column('index_name').doNothing())
          .execute();
      }
      for (const { index, from, nodeId } of change.move ?? []) {
        // the node may have renewed its lease since the move was planned: its indexes stay. Its
        // row is locked until the move commits, so a renewal waits for it and the node then
        // reads the new placement before it takes another request
        const node = await trx
          .selectFrom('nodes')
          .select('lease_expires_at_ms')
          .select(now.as('now_ms'))
          .where('id', '=', from)
          .$if(this.dialect === 'postgres', (q) => q.forUpdate())
          .executeTakeFirst();
        if (node !== undefined && Number(node.lease_expires_at_ms) > Number(node.now_ms)) continue;
        await trx
          .updateTable('placements')
          .set({ node_id: nodeId, lease_epoch: Number(lease.epoch), placed_at_ms: now })
          .where('index_name', '=', index)
          .where('node_id', '=', from)
          .execute();
      }
      return true;
    });
  }
}
