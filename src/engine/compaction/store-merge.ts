/**
 * A merge run away from the index's owner (the storage role of a cluster): its inputs come from
 * the object store as the catalog describes them, the merged file is written with the same merge
 * job as the compactor's and uploaded. Committing the swap is the caller's (the catalog decides,
 * with the deletes recorded meanwhile: see SegmentRepository.commitMerge); the local files are
 * scratch and go once the merge is done.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { openSegment } from '../segment/index.js';
import { DeletedDocs } from '../shard/deleted-docs.js';
import { persistSegment } from '../shard/persist-segment.js';
import type { SegmentWriterPool } from '../segment-writer-pool/index.js';
import type { SegmentFileRef } from '../segment-writer-pool/jobs.js';
import type { SegmentRecord, SegmentStore } from '../catalog/index.js';
import type { MergePlan } from './merge-policy.js';

export interface StoreMergeInput {
  /** where scratch files go; removed when the merge is done */
  scratchDir: string;
  store: SegmentStore;
  writer: SegmentWriterPool;
  index: { name: string; uuid: string };
  plan: MergePlan;
  /** the catalog's records of the plan's segments, as read before the merge */
  inputs: readonly SegmentRecord[];
}

export interface StoreMergeResult {
  /** the merged segment, uploaded, not committed; its deletedLids are the caller's to set */
  record: SegmentRecord;
  /** `_lid`s deleted in the inputs' records when they were read: left out of the merged file */
  droppedLids: number[];
}

export async function mergeFromStore(input: StoreMergeInput): Promise<StoreMergeResult> {
  const id = randomUUID();
  const dir = path.join(input.scratchDir, id);
  await fs.promises.mkdir(dir, { recursive: true });
  try {
    // the shard's order: oldest first, so that documents keep their order of arrival
    const records = [...input.inputs].sort((a, b) => a.maxLid - b.maxLid);
    const refs: SegmentFileRef[] = [];
    const droppedLids: number[] = [];
    for (const record of records) {
      const filePath = path.join(dir, `${record.id}.seg`);
      await input.store.getToFile(record.path, filePath);
      let deleted: Uint32Array | undefined;
      if ((record.deletedLids?.length ?? 0) > 0) {
        const lids = new DeletedDocs();
        for (const lid of record.deletedLids!) lids.add(lid);
        const reader = openSegment(filePath, record.id);
        try {
          deleted = lids.docsOf(reader);
          droppedLids.push(...lids.lidsOf(reader));
        } finally {
          reader.close();
        }
      }
      refs.push({ filePath, segmentId: record.id, deleted });
    }
    const writeMerged = (outputPath: string) => input.writer.run({ kind: 'merge', segmentId: id, inputs: refs, outputPath });
    const target = { dataDir: dir, store: input.store, index: input.index.name, indexUuid: input.index.uuid, level: input.plan.to };
    const persisted = await persistSegment(writeMerged, target, id);
    // lids stay unique: the file's largest may be gone, the next lid after a restart may not reuse it
    const maxLid = Math.max(persisted.record.maxLid, ...records.map((r) => r.maxLid));
    return { record: { ...persisted.record, maxLid }, droppedLids };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
