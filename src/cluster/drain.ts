/**
 * Draining a cache node: it is marked as draining (in its membership row), the coordinator lease
 * holder hands its indexes over to the other cache nodes one by one and places nothing new on
 * it. The node keeps serving its indexes until each is handed over, so nothing is unavailable
 * for a lease's length as after a stop. Used by `POST /_internal/drain` and by a graceful stop.
 */
import type { Metastore } from '../metastore/index.js';
import { COORDINATOR_LEASE } from './member.js';

export interface DrainState {
  node_id: string;
  draining: boolean;
  /** indexes still placed on the node */
  indexes: string[];
}

/** Indexes placed on the node now. */
export async function placedOn(metastore: Metastore, nodeId: string): Promise<string[]> {
  return (await metastore.placements.listPlacements()).filter((p) => p.nodeId === nodeId).map((p) => p.index);
}

/**
 * Waits until no index is placed on the drained node, or `untilMs` (local time) passes, or
 * nothing can move them (no other live cache node takes indexes, or no coordinator holds the
 * lease); the indexes left on it.
 */
export async function waitDrained(metastore: Metastore, nodeId: string, untilMs: number, pollMs = 100): Promise<string[]> {
  for (;;) {
    const [left, nodes, lease] = await Promise.all([placedOn(metastore, nodeId), metastore.nodes.liveNodes(), metastore.leases.get(COORDINATOR_LEASE)]);
    if (left.length === 0 || Date.now() >= untilMs || lease?.live !== true) return left;
    if (!nodes.some((n) => n.id !== nodeId && n.roles.includes('cache') && !n.draining)) return left;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/**
 * Starts (or ends) the drain of this node; with `waitMs`, waits up to that long for its indexes
 * to be handed over (waitDrained). What the drain route answers.
 */
export async function drainNode(
  member: { readonly nodeId: string; setDraining(draining: boolean): Promise<void> },
  metastore: Metastore,
  draining: boolean,
  waitMs?: number,
): Promise<DrainState> {
  await member.setDraining(draining);
  const indexes = waitMs === undefined ? await placedOn(metastore, member.nodeId) : await waitDrained(metastore, member.nodeId, Date.now() + waitMs);
  return { node_id: member.nodeId, draining, indexes };
}
