/**
 * Which cache node holds each index. The holder of the coordinator lease decides every change:
 * each runs in a transaction that first checks, on the lease row, that the writer still holds a
 * live lease (on PostgreSQL the row is locked, so a takeover waits for the change to commit).
 * One change is carried out by another node: the live handover of an index, which the lease
 * holder requests (`moving_to`) and the owner completes once it let the index go.
 */
import type { Kysely, Transaction } from 'kysely';
import { dbNowMs } from './db-clock.js';
import type { MetastoreDialect } from './metastore.js';
import type { MetastoreSchema } from './schema.js';
import { compareText } from './values.js';

export interface PlacementRecord {
  index: string;
  nodeId: string;
  leaseEpoch: number;
  placedAtMs: number;
  /** the node the owner was asked to hand the index over to, while the handover runs */
  movingTo?: string;
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
      .map((r) => ({
        index: r.index_name,
        nodeId: r.node_id,
        leaseEpoch: Number(r.lease_epoch),
        placedAtMs: Number(r.placed_at_ms),
        ...(r.moving_to === null ? {} : { movingTo: r.moving_to }),
      }));
  }

  /** The live lease `leaseName` when `holder` holds it (its row locked on PostgreSQL), else undefined. */
  private async heldLease(trx: Transaction<MetastoreSchema>, leaseName: string, holder: string): Promise<{ epoch: number } | undefined> {
    const lease = await trx
      .selectFrom('leases')
      .select(['holder', 'epoch', 'expires_at_ms'])
      .select(dbNowMs(this.dialect).as('now_ms'))
      .where('name', '=', leaseName)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (lease === undefined || lease.holder !== holder || Number(lease.expires_at_ms) <= Number(lease.now_ms)) return undefined;
    return { epoch: Number(lease.epoch) };
  }

  /**
   * Asks the owner `from` to hand `index` over to `to` (as the holder of `leaseName`); false when
   * the lease is not held, the index is not on `from`, or another move of it is asked already.
   */
  async requestMove(leaseName: string, holder: string, move: { index: string; from: string; to: string }): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const lease = await this.heldLease(trx, leaseName, holder);
      if (lease === undefined) return false;
      const result = await trx
        .updateTable('placements')
        .set({ moving_to: move.to, lease_epoch: lease.epoch })
        .where('index_name', '=', move.index)
        .where('node_id', '=', move.from)
        .where('moving_to', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
  }

  /** Withdraws a move asked of `from` (as the holder of `leaseName`): the owner keeps the index. */
  async cancelMove(leaseName: string, holder: string, move: { index: string; from: string; to: string }): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if ((await this.heldLease(trx, leaseName, holder)) === undefined) return false;
      const result = await trx
        .updateTable('placements')
        .set({ moving_to: null })
        .where('index_name', '=', move.index)
        .where('node_id', '=', move.from)
        .where('moving_to', '=', move.to)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
  }

  /**
   * The owner `from` completes a move it was asked for, once nothing of the index is held only
   * by it: the placement switches to `to`. Only while the move is still asked (not withdrawn),
   * `from`'s own lease is live (else the coordinator may be moving its indexes as a dead node's;
   * its row is locked, so such a move waits for this one) and `to` is live and not draining.
   */
  async completeMove(move: { index: string; from: string; to: string }): Promise<boolean> {
    const now = dbNowMs(this.dialect);
    return this.db.transaction().execute(async (trx) => {
      const nodes = await trx
        .selectFrom('nodes')
        .select(['id', 'lease_expires_at_ms', 'draining'])
        .select(now.as('now_ms'))
        .where('id', 'in', [move.from, move.to])
        .$if(this.dialect === 'postgres', (q) => q.forUpdate())
        .execute();
      const live = (id: string) => nodes.some((n) => n.id === id && Number(n.lease_expires_at_ms) > Number(n.now_ms));
      if (!live(move.from) || !live(move.to) || nodes.some((n) => n.id === move.to && Number(n.draining) === 1)) return false;
      const result = await trx
        .updateTable('placements')
        .set({ node_id: move.to, moving_to: null, placed_at_ms: now })
        .where('index_name', '=', move.index)
        .where('node_id', '=', move.from)
        .where('moving_to', '=', move.to)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
  }

  /**
   * Applies the change when `holder` holds the live lease `leaseName`; an index placed meanwhile
   * keeps its placement. False, with nothing written, when the lease is not held.
   */
  async applyAsLeaseHolder(leaseName: string, holder: string, change: PlacementChange): Promise<boolean> {
    const now = dbNowMs(this.dialect);
    return this.db.transaction().execute(async (trx) => {
      const lease = await this.heldLease(trx, leaseName, holder);
      if (lease === undefined) return false;
      if (change.remove.length > 0) await trx.deleteFrom('placements').where('index_name', 'in', [...change.remove]).execute();
      for (const { index, nodeId } of change.place) {
        await trx
          .insertInto('placements')
          .values({ index_name: index, node_id: nodeId, lease_epoch: lease.epoch, placed_at_ms: now, moving_to: null })
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
          // a handover the dead node was asked for is over: its new owner recovers the index
          .set({ node_id: nodeId, lease_epoch: lease.epoch, placed_at_ms: now, moving_to: null })
          .where('index_name', '=', index)
          .where('node_id', '=', from)
          .execute();
      }
      return true;
    });
  }
}
