/**
 * Runs the merges the policy asks for, one index at a time: merged file written on a segment
 * writer thread → uploaded → catalog swap (atomic) → readers swapped → replaced files deleted,
 * the last three on this thread. A failed merge (a corrupt input, a crashed writer thread)
 * leaves the old segments live and only costs the temporary file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { openSegment } from '../segment/index.js';
import { persistSegment, type PersistedSegment } from '../shard/persist-segment.js';
import { SegmentWriterPool } from '../segment-writer-pool/index.js';
import type { EngineCatalog, SegmentStore } from '../catalog/index.js';
import type { IndexShard, OpenSegment } from '../shard/index-shard.js';
import { nextMerge, DEFAULT_MERGE_POLICY, type MergePlan, type MergePolicyOptions } from './merge-policy.js';

/** What compaction reports, for the svc_compaction_* and svc_delete_file_* metrics. */
export interface CompactionEvents {
  started(plan: MergePlan): void;
  finished(plan: MergePlan, docs: number): void;
  failed(plan: MergePlan, cause: 'io' | 'catalog' | 'other'): void;
  fileDeleted(durationNs: number, ok: boolean): void;
}

export const NO_COMPACTION_EVENTS: CompactionEvents = {
  started: () => undefined,
  finished: () => undefined,
  failed: () => undefined,
  fileDeleted: () => undefined,
};

export class Compactor {
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataDir: string,
    private readonly catalog: EngineCatalog,
    private readonly store: SegmentStore,
    private readonly logger: Logger,
    private readonly events: CompactionEvents = NO_COMPACTION_EVENTS,
    private readonly policy: MergePolicyOptions = DEFAULT_MERGE_POLICY,
    private readonly readerGraceMs = 10 * 60_000,
    /** where merged files are written; its threads start with the first merge */
    private readonly writer: SegmentWriterPool = new SegmentWriterPool({ logger }),
  ) {}

  /** Queues merges of the shard until the policy is satisfied; merges run one at a time. */
  schedule(shard: IndexShard): Promise<void> {
    this.running = this.running.then(() => this.compactFully(shard)).catch(() => undefined);
    return this.running;
  }

  /**
   * Runs merges the caller plans (from the shard's segments at the time they run) in the queue
   * of scheduled ones, so that no two merges take the same segments; false when one failed.
   */
  runPlans(shard: IndexShard, plansOf: () => MergePlan[]): Promise<boolean> {
    const done = this.running.then(async () => {
      for (const plan of plansOf()) if (!(await this.merge(shard, plan))) return false;
      return true;
    });
    this.running = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  }

  private async compactFully(shard: IndexShard): Promise<void> {
    for (let plan = nextMerge(shard.segmentRecords(), this.policy); plan; plan = nextMerge(shard.segmentRecords(), this.policy)) {
      if (shard.closed) return;
      const ok = await this.merge(shard, plan);
      if (!ok) return;
    }
  }

  /** One merge; false when it failed (logged, counted) and the old segments stay. */
  async merge(shard: IndexShard, plan: MergePlan): Promise<boolean> {
    const parts = shard.segmentFilesForMerge(plan.segmentIds);
    if (parts.length !== plan.segmentIds.length) return false;
    const id = randomUUID();
    this.events.started(plan);
    let stage: 'io' | 'catalog' = 'io';
    let persisted: PersistedSegment | undefined;
    try {
      // deleted and replaced documents are left out of the merged file
      const dropped = shard.deletedInSegments(plan.segmentIds);
      const inputs = parts.map((p) => ({ filePath: p.filePath, segmentId: p.record.id, deleted: dropped.docs.get(p.record.id) }));
      const writeMerged = (outputPath: string) => this.writer.run({ kind: 'merge', segmentId: id, inputs, outputPath });
      persisted = await persistSegment(writeMerged, shard.persistTarget(plan.to), id);
      const { filePath } = persisted;
      // lids stay unique: the file's largest may be gone, the next lid after a restart may not reuse it
      const maxLid = Math.max(persisted.record.maxLid, ...parts.map((p) => p.record.maxLid));
      stage = 'catalog';
      const removed = await shard.withDeletesLock(async () => {
        // documents deleted while the merge ran are deleted in the merged file too
        const deletedLids = shard.deletedInSegments(plan.segmentIds).lids.filter((lid) => !dropped.lidSet.has(lid));
        const record = { ...persisted!.record, maxLid, ...(deletedLids.length > 0 ? { deletedLids } : {}) };
        await this.catalog.replaceSegments(shard.name, plan.segmentIds, record);
        persisted = { record, filePath };
        return shard.swapSegments(new Set(plan.segmentIds), { record, reader: openSegment(filePath, id) });
      });
      shard.deleted.forget(dropped.lidSet);
      const record = persisted.record;
      this.events.finished(plan, record.numDocs);
      await this.retire(removed);
      await this.store.deleteMany(removed.map((old) => old.record.path)).catch((err: unknown) => {
        this.logger.warn({ err, index: shard.name }, 'could not delete replaced segment objects; they are unreferenced');
      });
      return true;
    } catch (err) {
      this.events.failed(plan, stage);
      this.logger.error({ err, index: shard.name, from: plan.from, to: plan.to }, 'compaction failed; the merged segments stay live');
      if (persisted) {
        await fs.promises.rm(persisted.filePath, { force: true }).catch(() => undefined);
        await this.store.deleteMany([persisted.record.path]).catch(() => undefined);
      }
      return false;
    }
  }

  /**
   * Lets go of the local copies of replaced segments (merged here, or by the storage role of a
   * cluster): scrolls may still read them, so their files are unlinked now (open descriptors
   * keep them readable) and the readers closed after the grace period.
   */
  async retire(removed: readonly OpenSegment[]): Promise<void> {
    for (const old of removed) {
      const reader = old.reader;
      if (reader) setTimeout(() => reader.close(), this.readerGraceMs).unref();
      await this.deleteFile(path.join(this.dataDir, old.record.path));
    }
  }

  private async deleteFile(filePath: string): Promise<void> {
    const started = process.hrtime.bigint();
    try {
      await fs.promises.rm(filePath, { force: true });
      this.events.fileDeleted(Number(process.hrtime.bigint() - started), true);
    } catch (err) {
      this.events.fileDeleted(Number(process.hrtime.bigint() - started), false);
      this.logger.warn({ err, file: filePath }, 'could not delete a compacted segment file');
    }
  }

  /**
   * Resolves when queued merges are done and the writer threads are stopped (the next merge
   * starts one again): the engine's close and an index deletion wait for this.
   */
  async idle(): Promise<void> {
    await this.running;
    await this.writer.release();
  }

  /** Waits for queued merges, then stops the writer threads for good. */
  async close(): Promise<void> {
    await this.running;
    await this.writer.close();
  }
}
