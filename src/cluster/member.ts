/**
 * This process as a member of the cluster: every heartbeat interval it renews its row in the
 * nodes table; with the coordinator role it also tries for the coordinator lease (the database
 * decides who holds it) and, while holding it, places new indexes on cache nodes and, in a
 * cluster of several processes, moves live indexes between them (see Rebalancer). A failed tick
 * is logged and the next one tries again; the lease is counted as lost once its local deadline
 * passes without a renewal.
 */
import type { ClusterConfig } from '../config/index.js';
import { ServiceUnavailableError } from '../common/index.js';
import type { JsonObject, Metastore, NodeRecord, PlacementRecord } from '../metastore/index.js';
import { processFigures, type Logger } from '../observability/index.js';
import type { InternalClient } from './internal-client.js';
import { planPlacements } from './placement.js';
import { Rebalancer } from './rebalancer.js';

export const COORDINATOR_LEASE = 'coordinator';

export interface ClusterMemberOptions {
  config: ClusterConfig;
  nodeName: string;
  metastore: Metastore;
  logger: Logger;
  /** calls to other processes: with it, the lease holder moves live indexes between cache nodes */
  client?: InternalClient;
}

/** What the cluster looks like now, as the membership table says. */
export interface ClusterView {
  /** live nodes by id, this one included */
  nodes: NodeRecord[];
  /** the node holding the coordinator lease, if any holds a live one */
  masterNodeId: string | undefined;
}

export class ClusterMember {
  readonly nodeId: string;
  private url = '';
  private readonly startedAtMs = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;
  /** local time until which this process may act as the coordinator lease holder */
  private leaseDeadlineMs = 0;

  private readonly rebalancer: Rebalancer | undefined;
  private drainingFlag = false;

  constructor(private readonly opts: ClusterMemberOptions) {
    this.nodeId = opts.config.nodeId;
    this.rebalancer =
      opts.client !== undefined && opts.config.roles.includes('coordinator')
        ? new Rebalancer({
            metastore: opts.metastore,
            client: opts.client,
            logger: opts.logger,
            leaseName: COORDINATOR_LEASE,
            holder: this.nodeId,
            isLeader: () => this.isCoordinatorLeader,
          })
        : undefined;
  }

  /** True while this node hands its indexes over to others and takes no new ones. */
  get draining(): boolean {
    return this.drainingFlag;
  }

  /**
   * Starts (or ends) draining this node: the coordinator hands its indexes over to other cache
   * nodes one by one and places nothing new on it. Written at once; every heartbeat repeats it.
   */
  async setDraining(draining: boolean): Promise<void> {
    this.drainingFlag = draining;
    await this.opts.metastore.nodes.setDraining(this.nodeId, draining);
  }

  get roles(): readonly string[] {
    return this.opts.config.roles;
  }

  get advertisedUrl(): string {
    return this.url;
  }

  /** local time until which the membership row says this node is live */
  private nodeLeaseDeadlineMs = 0;
  private lapses = 0;

  /** How many times this node's own lease ran out before it was renewed (see holdsNodeLease). */
  get leaseLapses(): number {
    return this.lapses;
  }

  /**
   * True while this node's own membership lease is live: once it lapses, the coordinator may
   * move the indexes of a cache node to another, so the node must take no more writes for them.
   */
  get holdsNodeLease(): boolean {
    return Date.now() < this.nodeLeaseDeadlineMs;
  }

  /** True while this process holds a live coordinator lease. */
  get isCoordinatorLeader(): boolean {
    return Date.now() < this.leaseDeadlineMs;
  }

  /** Registers the node (the first heartbeat is awaited) and starts the heartbeat loop. */
  async start(listeningUrl: string): Promise<void> {
    this.url = this.opts.config.advertiseUrl ?? listeningUrl;
    await this.tick();
    this.schedule();
  }

  /** The live nodes and the lease holder, read from the metastore. */
  async view(): Promise<ClusterView> {
    const [nodes, lease] = await Promise.all([this.opts.metastore.nodes.liveNodes(), this.opts.metastore.leases.get(COORDINATOR_LEASE)]);
    return { nodes, masterNodeId: lease?.live ? lease.holder : undefined };
  }

  /** Stops the loop, gives up the coordinator lease and leaves the live set (a graceful stop). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await this.rebalancer?.stop();
    try {
      if (this.leaseDeadlineMs > 0) await this.opts.metastore.leases.release(COORDINATOR_LEASE, this.nodeId);
      this.leaseDeadlineMs = 0;
      await this.opts.metastore.nodes.leave(this.nodeId);
    } catch (err) {
      this.opts.logger.warn({ err }, 'could not leave the cluster cleanly; the node lease will expire');
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick().finally(() => this.schedule());
    }, this.opts.config.heartbeatIntervalMs);
    // the loop alone does not keep the process alive
    this.timer.unref();
  }

  private tick(): Promise<void> {
    this.ticking = this.beat()
      .catch((err: unknown) => this.opts.logger.warn({ err }, 'cluster heartbeat failed; retrying at the next one'))
      .then(() => this.afterBeat());
    return this.ticking;
  }

  private async beat(): Promise<void> {
    const { config, metastore } = this.opts;
    const beatAtMs = Date.now();
    // the lease ran out before this renewal: the coordinator may have moved this node's indexes
    if (this.nodeLeaseDeadlineMs !== 0 && beatAtMs >= this.nodeLeaseDeadlineMs) this.lapses++;
    await metastore.nodes.heartbeat({
      id: this.nodeId,
      name: this.opts.nodeName,
      roles: config.roles,
      url: this.url,
      stats: { ...processFigures(), ...this.figures() },
      startedAtMs: this.startedAtMs,
      leaseMs: config.leaseMs,
      draining: this.drainingFlag,
    });
    // counted from before the request: the database renewed the row no earlier than that
    this.nodeLeaseDeadlineMs = beatAtMs + config.leaseMs;
    if (!config.roles.includes('coordinator')) return;
    const askedAtMs = Date.now();
    const attempt = await metastore.leases.tryAcquire(COORDINATOR_LEASE, this.nodeId, config.leaseMs);
    const wasLeader = this.isCoordinatorLeader;
    // counted from before the request: the database granted the lease no earlier than that
    this.leaseDeadlineMs = attempt.held ? askedAtMs + config.leaseMs : 0;
    if (attempt.held && !wasLeader) this.opts.logger.info({ nodeId: this.nodeId, epoch: attempt.lease.epoch }, 'holding the coordinator lease');
    if (!attempt.held && wasLeader) this.opts.logger.warn({ nodeId: this.nodeId, holder: attempt.lease.holder }, 'lost the coordinator lease');
    if (attempt.held) await this.placeIndexes();
    if (attempt.held) this.rebalancer?.kick();
  }

  private async afterBeat(): Promise<void> {
    for (const listener of this.beatListeners) {
      await listener().catch((err: unknown) => this.opts.logger.warn({ err }, 'work after the heartbeat failed; retrying at the next one'));
    }
  }

  private readonly beatListeners: Array<() => Promise<void>> = [];
  private figures: () => JsonObject = () => ({});

  /** Figures of this process's role written with each heartbeat (a cache node's unflushed bytes). */
  reportFigures(figures: () => JsonObject): void {
    this.figures = figures;
  }

  /** Runs `listener` after each heartbeat (a failure is logged; the next heartbeat runs it again). */
  onHeartbeat(listener: () => Promise<void>): void {
    this.beatListeners.push(listener);
  }

  /**
   * Places an index that has none on the live cache node holding the fewest (an index a request
   * is about to create), as the lease holder; the index's placement after it, whoever made it.
   */
  async placeNow(index: string): Promise<PlacementRecord> {
    const { metastore } = this.opts;
    if (!this.isCoordinatorLeader) throw new ServiceUnavailableError(`node [${this.nodeId}] does not hold the coordinator lease`);
    const [placements, nodes] = await Promise.all([metastore.placements.listPlacements(), metastore.nodes.liveNodes()]);
    const found = placements.find((p) => p.index === index);
    if (found !== undefined) return found;
    const { cacheNodes, draining } = cacheNodesOf(nodes);
    const counted = placements.map((p) => p.index);
    const change = planPlacements([...counted, index], placements, cacheNodes, { draining });
    const mine = change.place.filter((p) => p.index === index);
    if (mine.length === 0) throw new ServiceUnavailableError(`no live cache node to place index [${index}] on`);
    if (!(await metastore.placements.applyAsLeaseHolder(COORDINATOR_LEASE, this.nodeId, { place: mine, remove: [] }))) {
      throw new ServiceUnavailableError(`node [${this.nodeId}] lost the coordinator lease`);
    }
    const placed = (await metastore.placements.listPlacements()).find((p) => p.index === index);
    if (placed === undefined) throw new ServiceUnavailableError(`index [${index}] could not be placed`);
    return placed;
  }

  /**
   * Places indexes that have no cache node yet, and with a shared write-ahead log volume moves
   * the indexes of dead cache nodes to live ones; written only while the lease is held.
   */
  private async placeIndexes(): Promise<void> {
    const { metastore, config } = this.opts;
    const [indexes, placements, nodes] = await Promise.all([metastore.indexes.listIndexes(), metastore.placements.listPlacements(), metastore.nodes.liveNodes()]);
    const { cacheNodes, draining } = cacheNodesOf(nodes);
    const change = planPlacements(
      indexes.map((i) => i.name),
      placements,
      cacheNodes,
      // placedAtMs is the database's clock: the grace is long enough for clocks that disagree
      { moveFromDead: config.sharedWalDir !== undefined, nowMs: Date.now(), graceMs: Math.max(60_000, 4 * config.leaseMs), draining },
    );
    if (change.place.length === 0 && change.remove.length === 0 && (change.move?.length ?? 0) === 0) return;
    const applied = await metastore.placements.applyAsLeaseHolder(COORDINATOR_LEASE, this.nodeId, change);
    if (applied && (change.move?.length ?? 0) > 0) this.opts.logger.info({ moved: change.move }, 'indexes of dead cache nodes moved');
    if (applied) this.opts.logger.debug({ placed: change.place, removed: change.remove }, 'index placements changed');
  }
}

/** The live cache nodes' ids, and those of them that drain. */
function cacheNodesOf(nodes: readonly NodeRecord[]): { cacheNodes: string[]; draining: Set<string> } {
  const cache = nodes.filter((n) => n.roles.includes('cache'));
  return { cacheNodes: cache.map((n) => n.id), draining: new Set(cache.filter((n) => n.draining).map((n) => n.id)) };
}
