/**
 * The indexes a cache node of a cluster holds: those the placement table puts on it. Read at
 * start (the engine opens only these) and after every heartbeat, when indexes placed here since
 * (new ones, or moved from a cache node that died) are opened. With SVC_SHARED_WAL_DIR, each
 * cache node's write-ahead log is `<dir>/<node id>`, and the logs of nodes that are not live
 * are where a moved index's unflushed writes are recovered from.
 */
import fs from 'node:fs';
import path from 'node:path';
import { IndexNotHereError } from '../common/index.js';
import type { Metastore } from '../metastore/index.js';

/** What the holdings need of the engine. */
export interface HeldEngine {
  indexNames(): string[];
  openIndexes(names: readonly string[]): Promise<void>;
  dropIndex(name: string): Promise<void>;
  handOver(name: string): Promise<void>;
  takeBack(name: string): Promise<void>;
}

export class CacheHoldings {
  private held = new Set<string>();
  /** indexes placed on other nodes */
  private elsewhere = new Set<string>();
  /** indexes being handed over to another node: refused here until the handover ends */
  private readonly leaving = new Set<string>();

  constructor(
    private readonly metastore: Metastore,
    private readonly nodeId: string,
    private readonly sharedWalDir: string | undefined,
  ) {}

  /** Reads this node's placements; the names placed here since the last read. */
  async refresh(): Promise<string[]> {
    const placements = await this.metastore.placements.listPlacements();
    const mine = placements.filter((p) => p.nodeId === this.nodeId).map((p) => p.index);
    const added = mine.filter((index) => !this.held.has(index));
    this.held = new Set(mine);
    this.elsewhere = new Set(placements.filter((p) => p.nodeId !== this.nodeId).map((p) => p.index));
    return added;
  }

  /** Whether the index is placed on another node (as last read). */
  placedElsewhere(index: string): boolean {
    return this.elsewhere.has(index);
  }

  /** lease lapses of this node whose consequences were dealt with (see reconcile) */
  private reconciledLapses = 0;

  /**
   * After a heartbeat: reads the placements, lets go of indexes moved to other nodes (while this
   * node's lease had lapsed) and opens those placed here since. Until it ran after a lapse, the
   * node refuses requests (assertHeld) and its flushes commit nothing (see fencedCatalog).
   */
  async reconcile(engine: HeldEngine, lapses: number): Promise<void> {
    const placed = await this.refresh();
    for (const index of engine.indexNames()) if (this.elsewhere.has(index)) await engine.dropIndex(index);
    if (placed.length > 0) await engine.openIndexes(placed);
    this.reconciledLapses = lapses;
  }

  /** True while the node's lease is live and no lapse of it waits for reconcile. */
  leaseIntact(member: { holdsNodeLease: boolean; leaseLapses: number }): boolean {
    return member.holdsNodeLease && member.leaseLapses === this.reconciledLapses;
  }

  /**
   * Refuses a request about indexes placed on another node (moved away while this node's lease
   * lapsed, or a caller with an old placement), and any request once this node's own lease
   * lapsed: the coordinator may be moving its indexes. The caller reads the placements again
   * and retries.
   */
  async assertHeld(indexes: readonly string[], leaseLive: boolean): Promise<void> {
    if (!leaseLive) throw new IndexNotHereError(`cache node [${this.nodeId}] has not renewed its lease; its indexes may be moving`);
    const leaving = indexes.find((i) => this.leaving.has(i));
    if (leaving !== undefined) throw new IndexNotHereError(`index [${leaving}] is being handed over to another cache node`, leaving);
    if (indexes.every((i) => this.held.has(i))) return;
    await this.refresh();
    const moved = indexes.find((i) => this.elsewhere.has(i));
    if (moved !== undefined) throw new IndexNotHereError(`index [${moved}] is held by another cache node`, moved);
  }

  /** Whether the index is this node's to open and serve (placed here, and not being handed over). */
  holds(index: string): boolean {
    return this.held.has(index) && !this.leaving.has(index);
  }

  /**
   * Hands `index` over to cache node `to`, as the coordinator asked (the placement's `moving_to`):
   * requests about it are refused from now on, the engine commits everything of it and lets it
   * go, then the placement switches to `to` (completeMove). When the engine fails, or the move
   * was withdrawn or can no longer happen (a node's lease ran out), the index stays here and is
   * opened again. Asked again after it completed (the coordinator did not see the answer), it
   * answers the same.
   */
  async handOver(engine: HeldEngine, index: string, to: string, leaseLive: boolean): Promise<void> {
    // asked again while it runs (a coordinator that took the lease over): the same answer
    const running = this.handovers.get(index);
    if (running !== undefined && running.to === to) return running.done;
    await this.refresh();
    const placement = (await this.metastore.placements.listPlacements()).find((p) => p.index === index);
    if (placement?.nodeId === to) return;
    if (placement === undefined || placement.nodeId !== this.nodeId || placement.movingTo !== to) {
      throw new IndexNotHereError(`index [${index}] is not asked to move from [${this.nodeId}] to [${to}]`, index);
    }
    if (!leaseLive) throw new IndexNotHereError(`cache node [${this.nodeId}] has not renewed its lease; its indexes may be moving`);
    if (this.leaving.has(index)) throw new IndexNotHereError(`index [${index}] is being handed over already`, index);
    this.leaving.add(index);
    const done = this.completeHandOver(engine, index, to).finally(() => this.handovers.delete(index));
    this.handovers.set(index, { to, done });
    return done;
  }

  /** handovers running, by index */
  private readonly handovers = new Map<string, { to: string; done: Promise<void> }>();

  private async completeHandOver(engine: HeldEngine, index: string, to: string): Promise<void> {
    let completed = false;
    try {
      await engine.handOver(index);
      completed = await this.metastore.placements.completeMove({ index, from: this.nodeId, to });
    } finally {
      this.leaving.delete(index);
      if (completed) {
        this.held.delete(index);
        this.elsewhere.add(index);
      } else {
        await engine.takeBack(index);
      }
    }
    if (!completed) throw new IndexNotHereError(`the move of index [${index}] to [${to}] was withdrawn or cannot happen now; it stays on [${this.nodeId}]`, index);
  }

  /** This node's write-ahead log directory; undefined: the data directory's. */
  walDir(): string | undefined {
    return this.sharedWalDir === undefined ? undefined : path.join(path.resolve(this.sharedWalDir), this.nodeId);
  }

  /**
   * Logs of the shared volume whose nodes are not live (a live node's log is being written, and
   * an index moves only from a dead one).
   */
  async foreignWalDirs(): Promise<string[]> {
    if (this.sharedWalDir === undefined) return [];
    const root = path.resolve(this.sharedWalDir);
    const live = new Set((await this.metastore.nodes.liveNodes()).map((n) => n.id));
    const entries = await fs.promises.readdir(root, { withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isDirectory() && e.name !== this.nodeId && !live.has(e.name))
      .map((e) => path.join(root, e.name))
      .sort();
  }
}
