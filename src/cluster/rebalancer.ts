/**
 * Live moves of indexes between cache nodes, run by the coordinator lease holder: the indexes
 * of draining nodes go first, then indexes of the busiest nodes go to the ones holding the
 * fewest until the counts differ by at most one (planMove). One move at a time: the holder
 * records it in the placement (`moving_to`), asks the owner to hand the index over
 * (`POST /_internal/handover/{index}`), and the owner switches the placement once everything
 * of the index is in the catalog. A move that fails is withdrawn and planned again later; a
 * move asked by an earlier lease holder is carried on or withdrawn first.
 */
import type { Metastore, NodeRecord } from '../metastore/index.js';
import type { Logger } from '../observability/index.js';
import type { InternalClient } from './internal-client.js';
import { planMove, type PlannedMove } from './placement.js';

/** moves made in one run, before the next heartbeat starts another */
const MOVES_PER_RUN = 64;
/** how long an owner may take to commit an index and let it go */
const HANDOVER_TIMEOUT_MS = 60_000;

export interface RebalancerOptions {
  metastore: Metastore;
  client: InternalClient;
  logger: Logger;
  leaseName: string;
  holder: string;
  /** whether this process still holds the coordinator lease */
  isLeader: () => boolean;
}

export class Rebalancer {
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly opts: RebalancerOptions) {}

  /** Starts a run unless one is going (after each heartbeat of the lease holder). */
  kick(): void {
    if (this.running !== undefined || this.stopped) return;
    this.running = this.run()
      .catch((err: unknown) => this.opts.logger.warn({ err }, 'moving indexes between cache nodes failed; retrying at the next heartbeat'))
      .finally(() => (this.running = undefined));
  }

  /** Stops after the move under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async run(): Promise<void> {
    const { metastore, leaseName, holder } = this.opts;
    for (let done = 0; done < MOVES_PER_RUN && !this.stopped && this.opts.isLeader(); done++) {
      const [indexes, placements, nodes] = await Promise.all([metastore.indexes.listIndexes(), metastore.placements.listPlacements(), metastore.nodes.liveNodes()]);
      const cacheNodes = nodes.filter((n) => n.roles.includes('cache'));
      const asked = placements.find((p) => p.movingTo !== undefined);
      let move: PlannedMove | undefined;
      if (asked !== undefined) {
        move = { index: asked.index, from: asked.nodeId, to: asked.movingTo! };
      } else {
        move = planMove(
          indexes.map((i) => i.name),
          placements,
          cacheNodes.map((n) => ({ id: n.id, draining: n.draining })),
        );
        if (move === undefined) return;
        if (!(await metastore.placements.requestMove(leaseName, holder, move))) return;
      }
      if (!(await this.handOver(move, cacheNodes))) return;
    }
  }

  /** Asks the owner to hand the index over; a move that failed is withdrawn. True when it moved. */
  private async handOver(move: PlannedMove, cacheNodes: readonly NodeRecord[]): Promise<boolean> {
    const { metastore, leaseName, holder, client, logger } = this.opts;
    const from = cacheNodes.find((n) => n.id === move.from);
    const to = cacheNodes.find((n) => n.id === move.to);
    try {
      if (from === undefined || to === undefined || to.draining) throw new Error('a node of the move is not live, or the target drains');
      const started = Date.now();
      await client.json(from.url, `/_internal/handover/${encodeURIComponent(move.index)}`, { to: move.to }, HANDOVER_TIMEOUT_MS);
      logger.info({ ...move, ms: Date.now() - started }, 'index handed over to another cache node');
      return true;
    } catch (err) {
      // an owner that completed the move meanwhile keeps it: the withdrawal changes nothing then
      await metastore.placements.cancelMove(leaseName, holder, move);
      logger.warn({ err, ...move }, 'index handover failed; it stays on its node and is planned again');
      return false;
    }
  }
}
