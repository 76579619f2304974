/**
 * Where the api role sends requests: the catalog's index names and aliases, the placement of
 * each index on a cache node and the URL of every live node, read from the metastore and kept
 * for a heartbeat interval. An index with no placement yet (a write creating it) is placed by
 * the coordinator lease holder, asked over an internal route.
 */
import { ServiceUnavailableError } from '../common/index.js';
import { AliasTable } from '../engine/index.js';
import type { Metastore } from '../metastore/index.js';
import type { InternalClient } from './internal-client.js';
import { COORDINATOR_LEASE } from './member.js';

export interface RoutingSnapshot {
  /** index names of the catalog, sorted */
  indexes: string[];
  aliases: AliasTable;
  /** index → cache node id */
  placements: ReadonlyMap<string, string>;
  /** live node id → URL */
  liveUrls: ReadonlyMap<string, string>;
  /** live cache node ids, sorted */
  cacheNodes: string[];
  coordinatorUrl: string | undefined;
  readAtMs: number;
}

export interface ClusterRoutingOptions {
  metastore: Metastore;
  client: InternalClient;
  /** how long a snapshot serves before it is read again */
  maxAgeMs: number;
  /** how long a request waits, all its parts together, for its indexes to move before a 503 */
  moveWaitMs: number;
  /** whether the coordinator moves the indexes of a dead cache node (a shared log volume) */
  movesFromDead: boolean;
}

export class ClusterRouting {
  private snapshot: RoutingSnapshot | undefined;
  private reading: Promise<RoutingSnapshot> | undefined;

  constructor(private readonly opts: ClusterRoutingOptions) {}

  /**
   * The local time until which a request starting now waits for its indexes to move (a node
   * that died or left, an index handed over): one deadline shared by all parts of the request.
   */
  deadline(): number {
    return Date.now() + this.opts.moveWaitMs;
  }

  /**
   * Forgets the snapshot, so that the next request reads the catalog again: after a request
   * through this process created an index, its next searches see it (other processes within
   * maxAgeMs).
   */
  invalidate(): void {
    this.snapshot = undefined;
  }

  /** Whether the catalog as last read has this index. */
  knows(index: string): boolean {
    return this.snapshot?.indexes.includes(index) ?? false;
  }

  /** The snapshot, read again when older than maxAgeMs (or always with `fresh`). */
  async current(fresh = false): Promise<RoutingSnapshot> {
    const s = this.snapshot;
    if (!fresh && s !== undefined && Date.now() - s.readAtMs < this.opts.maxAgeMs) return s;
    this.reading ??= this.read().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async read(): Promise<RoutingSnapshot> {
    const { metastore } = this.opts;
    const [indexes, aliases, placements, nodes, lease] = await Promise.all([
      metastore.indexes.listIndexes(),
      metastore.aliases.listAliases(),
      metastore.placements.listPlacements(),
      metastore.nodes.liveNodes(),
      metastore.leases.get(COORDINATOR_LEASE),
    ]);
    const table = new AliasTable();
    table.set(aliases.map((r) => ({ alias: r.alias, index: r.index, isWriteIndex: r.isWriteIndex })));
    const liveUrls = new Map(nodes.map((n) => [n.id, n.url]));
    const snapshot: RoutingSnapshot = {
      indexes: indexes.map((i) => i.name).sort(),
      aliases: table,
      placements: new Map(placements.map((p) => [p.index, p.nodeId])),
      liveUrls,
      cacheNodes: nodes
        .filter((n) => n.roles.includes('cache'))
        .map((n) => n.id)
        .sort(),
      coordinatorUrl: lease?.live ? liveUrls.get(lease.holder) : undefined,
      readAtMs: Date.now(),
    };
    this.snapshot = snapshot;
    return snapshot;
  }

  /** The index a write addressed to `name` goes to (an alias' write index). */
  async writeIndexFor(name: string): Promise<string> {
    let s = await this.current();
    if (!s.aliases.map().has(name) && !s.placements.has(name)) s = await this.current(true);
    return s.aliases.writeIndexFor(name, s.placements.has(name) || s.indexes.includes(name));
  }

  /**
   * The URL of the live cache node holding `index`. Without a placement, the index is placed
   * first when `place` (a request that creates it), else undefined. An index on a node that is
   * not live waits until `deadline` for the coordinator to move it, or fails at once when no
   * move can happen (the coordinator moves a dead node's indexes only with a shared log volume).
   */
  async ownerUrl(index: string, place: boolean, deadline = this.deadline()): Promise<string | undefined> {
    let s = await this.current();
    for (let attempt = 0; ; attempt++) {
      const nodeId = s.placements.get(index);
      const url = nodeId === undefined ? undefined : s.liveUrls.get(nodeId);
      if (url !== undefined) return url;
      if (nodeId === undefined && attempt > 0) {
        if (!place) return undefined;
        const placed = await this.askCoordinator(s, index);
        s = await this.current(true);
        const placedUrl = s.liveUrls.get(placed.node_id);
        if (placedUrl !== undefined) return placedUrl;
      }
      if (attempt > 0 && nodeId !== undefined && !this.opts.movesFromDead) {
        throw new ServiceUnavailableError(
          `index [${index}] is held by cache node [${nodeId}], which is not live; without SVC_SHARED_WAL_DIR its indexes do not move, and it answers again once that node is back`,
        );
      }
      if (attempt > 0 && Date.now() > deadline) {
        throw new ServiceUnavailableError(`index [${index}] is placed on node [${nodeId ?? 'none'}], which is not live; it moves once the coordinator places it again`);
      }
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(250, this.opts.maxAgeMs)));
      s = await this.current(true);
    }
  }

  private async askCoordinator(s: RoutingSnapshot, index: string): Promise<{ index: string; node_id: string }> {
    if (s.coordinatorUrl === undefined) throw new ServiceUnavailableError(`no coordinator holds the lease, so index [${index}] cannot be placed; retry later`);
    return this.opts.client.json(s.coordinatorUrl, `/_internal/placements/${encodeURIComponent(index)}`, {});
  }

  /** Groups concrete indexes by the URL of the live cache node holding them (placing none), all waiting until one deadline. */
  async byOwner(indexes: readonly string[], deadline = this.deadline()): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (const index of indexes) {
      const url = await this.ownerUrl(index, false, deadline);
      // an index of the catalog nobody holds yet has no documents
      if (url === undefined) continue;
      let list = out.get(url);
      if (!list) out.set(url, (list = []));
      list.push(index);
    }
    return out;
  }

  /** Some live cache node, for requests no single index decides. */
  async anyCacheUrl(): Promise<string> {
    let s = await this.current();
    if (s.cacheNodes.length === 0) s = await this.current(true);
    const id = s.cacheNodes[0];
    if (id === undefined) throw new ServiceUnavailableError('no cache node is live');
    return s.liveUrls.get(id)!;
  }
}

