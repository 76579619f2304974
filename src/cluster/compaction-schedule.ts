/**
 * The coordinator's schedule of the storage role's work: at each heartbeat of the lease holder,
 * the merge policy runs over every index's live segments as the catalog lists them, and each
 * merge that is due goes to a live storage process (the same one for an index while the set of
 * storage processes stays the same). A storage process queues the merges it is sent and says
 * which indexes it has queued; an index is sent again only once no storage process has it, and
 * a storage process gets no more while it has MAX_QUEUED. Every gcIntervalMs, one storage
 * process collects garbage. Without a live storage process nothing is scheduled: the cache
 * nodes merge their own indexes, as in one process.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_MERGE_POLICY, idleMerge, nextMerge, type MergePlan, type MergePolicyOptions, type SegmentRecord } from '../engine/index.js';
import type { Metastore, NodeRecord } from '../metastore/index.js';
import type { Logger } from '../observability/index.js';
import type { InternalClient } from './internal-client.js';

export interface CompactionScheduleOptions {
  metastore: Metastore;
  client: InternalClient;
  logger: Logger;
  gcIntervalMs: number;
  /** an index whose newest segment is this old is idle: its quick L0 files merge into L1 */
  idleIndexMs: number;
  policy?: MergePolicyOptions;
}

/** Live processes with the storage role, by id. */
export function storageNodes(nodes: readonly NodeRecord[]): NodeRecord[] {
  return nodes.filter((n) => n.roles.includes('storage')).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** merges a storage process may have queued or running before it is sent more */
const MAX_QUEUED = 2;

export class CompactionSchedule {
  private lastGcMs = 0;
  private collecting = false;

  constructor(private readonly opts: CompactionScheduleOptions) {}

  /** One round, at a heartbeat of the coordinator lease holder; merges run on without it. */
  async tick(nowMs = Date.now()): Promise<void> {
    const { metastore } = this.opts;
    const storage = storageNodes(await metastore.nodes.liveNodes());
    if (storage.length === 0) return;
    // what each storage process has queued; one that does not answer gets nothing this time
    const queued = await Promise.all(
      storage.map((node) =>
        this.opts.client.json<{ merging: string[] }>(node.url, '/_internal/storage/merges').then(
          (r) => r.merging,
          () => undefined,
        ),
      ),
    );
    const busy = new Set(queued.flatMap((q) => q ?? []));
    const byIndex = new Map<string, SegmentRecord[]>();
    for (const s of await metastore.segments.listSegments()) {
      let list = byIndex.get(s.index);
      if (list === undefined) byIndex.set(s.index, (list = []));
      list.push(s);
    }
    for (const [index, segments] of byIndex) {
      if (busy.has(index)) continue;
      const k = bucketOf(index, storage.length);
      const load = queued[k];
      if (load === undefined || load.length >= MAX_QUEUED) continue;
      const plan = this.planFor(segments, nowMs);
      if (plan === null) continue;
      load.push(index);
      await this.send(index, plan, storage[k]!);
    }
    if (nowMs - this.lastGcMs >= this.opts.gcIntervalMs && !this.collecting) {
      this.lastGcMs = nowMs;
      this.collect(storage[0]!);
    }
  }

  /** The next merge of an index: the policy's, or the idle merge once no flush came for idleIndexMs. */
  private planFor(segments: readonly SegmentRecord[], nowMs: number): MergePlan | null {
    const policy = this.opts.policy ?? DEFAULT_MERGE_POLICY;
    const plan = nextMerge(segments, policy);
    if (plan !== null) return plan;
    const newest = Math.max(...segments.map((s) => s.createdAtMs));
    return nowMs - newest >= this.opts.idleIndexMs ? idleMerge(segments, policy) : null;
  }

  /** Queues the merge on the storage process (it answers at once); a refusal is logged and planned again. */
  private async send(index: string, plan: MergePlan, node: NodeRecord): Promise<void> {
    const body = { index, from: plan.from, to: plan.to, segment_ids: plan.segmentIds };
    await this.opts.client
      .json(node.url, '/_internal/storage/merge', body)
      .catch((err: unknown) => this.opts.logger.warn({ err, index, node: node.id }, 'a storage process did not take a merge; it is planned again'));
  }

  private collect(node: NodeRecord): void {
    this.collecting = true;
    void this.opts.client
      .json(node.url, '/_internal/storage/gc', {})
      .catch((err: unknown) => this.opts.logger.warn({ err, node: node.id }, 'garbage collection on the storage role failed; it runs again at the next interval'))
      .finally(() => (this.collecting = false));
  }
}

/** A stable choice among `n` for an index. */
function bucketOf(index: string, n: number): number {
  return createHash('sha256').update(index).digest().readUInt32BE(0) % n;
}
