/**
 * The storage role of a cluster: merges and garbage collection against the object store, as
 * the coordinator schedules them (compaction-schedule.ts). A merge reads its inputs from the
 * object store as the catalog describes them, writes and uploads the merged file, commits the
 * swap in the catalog (which keeps the deletes the owner recorded meanwhile) and tells the cache
 * node holding the index, which takes the merged file in; the owner also looks at its heartbeat.
 *
 * Garbage: a segment file no live segment names is deleted once it has been unreferenced for
 * the grace period: replaced segments (and those of deleted indexes) by the time the catalog
 * marked them, files no row names at all (a flush or merge that uploaded and never committed)
 * from when this process first saw them so.
 */
import type { Logger } from '../observability/index.js';
import { ConflictError } from '../common/index.js';
import { mergeFromStore, SegmentWriterPool, type CompactionEvents, type MergePlan, type SegmentRecord } from '../engine/index.js';
import type { Metastore } from '../metastore/index.js';
import type { ObjectStore } from '../storage/index.js';
import type { InternalClient } from './internal-client.js';

export interface StorageServiceOptions {
  metastore: Metastore;
  store: ObjectStore;
  /** where merges keep their scratch files */
  scratchDir: string;
  client: InternalClient;
  logger: Logger;
  gcGraceMs: number;
  /** merges reported as the compactor's are (the svc_compaction_* metrics) */
  events?: CompactionEvents;
}

/** Where segment files live in the object store (see persistSegment). */
const SEGMENTS_PREFIX = 'indexes/';

export class StorageService {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly mergingIndexes = new Set<string>();
  private readonly writer: SegmentWriterPool;
  /** object keys no segment row names, and when this process first saw them so */
  private readonly orphanSince = new Map<string, number>();

  constructor(private readonly opts: StorageServiceOptions) {
    this.writer = new SegmentWriterPool({ logger: opts.logger });
  }

  /** Indexes with a merge queued or running here. */
  merging(): string[] {
    return [...this.mergingIndexes];
  }

  /**
   * Queues a merge (see merge) without waiting for it: its outcome is in the catalog, and a
   * failure is logged (the coordinator plans the merge again). ConflictError at once when the
   * index has a merge queued or running here.
   */
  enqueue(index: string, plan: MergePlan): void {
    this.merge(index, plan).catch((err: unknown) => this.opts.logger.warn({ err, index }, 'a merge on the storage role failed; the coordinator plans it again'));
  }

  /**
   * Merges the plan's segments of an index (queued: one merge at a time in this process) and
   * answers the committed segment. ConflictError, thrown at once, when the index has a merge
   * queued or running here; the merge fails with one when the segments are no longer all live
   * (a merge elsewhere, a deleted index).
   */
  merge(index: string, plan: MergePlan): Promise<SegmentRecord> {
    if (this.mergingIndexes.has(index)) throw new ConflictError(`index [${index}] is being merged already`);
    this.mergingIndexes.add(index);
    const run = this.queue.then(() => this.mergeNow(index, plan)).finally(() => this.mergingIndexes.delete(index));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async mergeNow(index: string, plan: MergePlan): Promise<SegmentRecord> {
    const { metastore, store, logger } = this.opts;
    const [record, live] = await Promise.all([metastore.indexes.getIndex(index), metastore.segments.listSegments(index)]);
    const wanted = new Set(plan.segmentIds);
    const inputs = live.filter((s) => wanted.has(s.id));
    if (record === undefined || inputs.length !== wanted.size) {
      throw new ConflictError(`segments of index [${index}] to merge are no longer all live`, 'version_conflict_engine_exception', { index });
    }
    const started = performance.now();
    const events = this.opts.events;
    events?.started(plan);
    let merged;
    try {
      merged = await mergeFromStore({ scratchDir: this.opts.scratchDir, store, writer: this.writer, index: { name: index, uuid: record.uuid }, plan, inputs });
    } catch (err) {
      events?.failed(plan, 'io');
      throw err;
    }
    let committed: SegmentRecord;
    try {
      committed = await metastore.segments.commitMerge(index, plan.segmentIds, merged.record, merged.droppedLids);
    } catch (err) {
      events?.failed(plan, 'catalog');
      // uncommitted, the merged file is nobody's
      await store.deleteMany([merged.record.path]).catch(() => undefined);
      throw err;
    }
    events?.finished(plan, committed.numDocs);
    logger.info(
      { index, from: plan.from, to: plan.to, segments: plan.segmentIds.length, docs: committed.numDocs, deletedSinceStart: committed.deletedLids?.length ?? 0, ms: Math.round(performance.now() - started) },
      'segments merged by the storage role',
    );
    await this.notifyOwner(index);
    return committed;
  }

  /** Tells the cache node holding the index to take the merge in now rather than at its next heartbeat. */
  private async notifyOwner(index: string): Promise<void> {
    const { metastore, client, logger } = this.opts;
    try {
      const [placements, nodes] = await Promise.all([metastore.placements.listPlacements(), metastore.nodes.liveNodes()]);
      const owner = placements.find((p) => p.index === index);
      const url = nodes.find((n) => n.id === owner?.nodeId)?.url;
      if (url === undefined) return;
      const res = await client.call(url, `/_internal/segments/${encodeURIComponent(index)}/sync`, { method: 'POST' });
      if (res.status >= 300) logger.warn({ index, status: res.status }, 'the cache node holding the index did not take the merge in; it will at its heartbeat');
    } catch (err) {
      logger.warn({ err, index }, 'could not tell the cache node holding the index about the merge; it will see it at its heartbeat');
    }
  }

  /** One pass of garbage collection; the keys it deleted. */
  async collectGarbage(nowMs = Date.now()): Promise<string[]> {
    const { metastore, store, gcGraceMs } = this.opts;
    const [live, replaced] = await Promise.all([metastore.segments.listSegments(), metastore.segments.listDeletable()]);
    const livePaths = new Set(live.map((s) => s.path));
    // a merged file keeps the path of no replaced one, but a row could be named twice: live wins
    const due = replaced.filter((s) => s.deletedAtMs <= nowMs - gcGraceMs);
    const dueKeys = due.map((s) => s.path).filter((key) => !livePaths.has(key));
    const known = new Set([...livePaths, ...replaced.map((s) => s.path)]);
    const objects = await store.list(SEGMENTS_PREFIX);
    const orphans: string[] = [];
    const listed = new Set<string>();
    for (const { key } of objects) {
      listed.add(key);
      if (known.has(key)) {
        this.orphanSince.delete(key);
        continue;
      }
      const since = this.orphanSince.get(key) ?? nowMs;
      this.orphanSince.set(key, since);
      if (nowMs - since >= gcGraceMs) orphans.push(key);
    }
    for (const key of this.orphanSince.keys()) if (!listed.has(key)) this.orphanSince.delete(key);
    const deleted = [...dueKeys.filter((key) => listed.has(key)), ...orphans];
    if (deleted.length > 0) await store.deleteMany(deleted);
    for (const key of orphans) this.orphanSince.delete(key);
    // the rows of deleted files are forgotten once the files are gone
    await metastore.segments.purgeSegments(due.filter((s) => !livePaths.has(s.path)).map((s) => s.id));
    if (deleted.length > 0) this.opts.logger.info({ deleted: deleted.length, replaced: dueKeys.length, unreferenced: orphans.length }, 'garbage collected in the object store');
    return deleted;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.writer.close();
  }
}
