/**
 * The write budget of a cluster (SVC_STORAGE_MAX_PENDING_BYTES): the document bytes accepted and
 * not yet in the object store, summed over every live cache node. Each cache node reports its
 * own figure in its heartbeat row (`stats.unflushed_bytes`); every process reads the rows at its
 * heartbeat. The sum is therefore as old as two heartbeat intervals at most (a node's report,
 * then the reader's read); a cache node counts its own bytes as they are now.
 */
import type { NodeRecord } from '../metastore/index.js';

/** The key of the figure in a cache node's heartbeat stats. */
export const UNFLUSHED_BYTES_STAT = 'unflushed_bytes';

export class ClusterWriteBudget {
  private othersBytes = 0;
  /** this process's own bytes, when it is a cache node */
  private ownBytes: () => number = () => 0;

  /** @param selfId this process's node id: its own figure is counted live, not as reported */
  constructor(private readonly selfId: string) {}

  /** Takes the figures of the live nodes' rows. */
  observe(liveNodes: readonly NodeRecord[]): void {
    let sum = 0;
    for (const node of liveNodes) {
      if (node.id === this.selfId || !node.roles.includes('cache')) continue;
      const reported = node.stats[UNFLUSHED_BYTES_STAT];
      if (typeof reported === 'number' && Number.isFinite(reported) && reported > 0) sum += reported;
    }
    this.othersBytes = sum;
  }

  /** Counts this process's bytes as `own` says, now rather than as reported (a cache node). */
  countOwn(own: () => number): void {
    this.ownBytes = own;
  }

  /** The cluster's bytes waiting for storage: this node's now (`own`, or as countOwn says) and the others' as last read. */
  pendingBytes(own = this.ownBytes()): number {
    return own + this.othersBytes;
  }
}
