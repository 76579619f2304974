/**
 * Carries out one job where it is called (on a segment writer thread): the job's source is
 * opened as a SegmentReader, written with writeSegment, and closed whatever happens.
 */
import { mergeSegments, openSegment, withoutDocs, writeSegment, type SegmentFileInfo, type SegmentFileReader, type WriteOptions } from '../segment/index.js';
import type { SegmentReader } from '../segment-reader.js';
import { Memtable } from '../memtable/index.js';
import type { MergeJob, SegmentWriteJob } from './jobs.js';

interface JobSource {
  reader: SegmentReader;
  close(): void;
}

export async function runJob(job: SegmentWriteJob, options: WriteOptions = {}): Promise<SegmentFileInfo> {
  const source = openJobSource(job);
  try {
    // a flush writes quickly; a merge makes the files compact (compression.ts)
    const compression = job.kind === 'merge' ? 'compact' : 'quick';
    return await writeSegment(source.reader, job.outputPath, { ...options, compression });
  } finally {
    source.close();
  }
}

function openJobSource(job: SegmentWriteJob): JobSource {
  switch (job.kind) {
    case 'merge':
      return openMerge(job);
    case 'memtable-snapshot':
      return { reader: new Memtable(job.snapshot.id, job.snapshot), close: () => undefined };
  }
}

function openMerge(job: MergeJob): JobSource {
  const readers: SegmentFileReader[] = [];
  const closeAll = () => {
    for (const r of readers) r.close();
  };
  try {
    for (const input of job.inputs) readers.push(openSegment(input.filePath, input.segmentId));
  } catch (err) {
    closeAll();
    throw err;
  }
  const live = readers.map((r, k) => withoutDocs(r, job.inputs[k]!.deleted));
  return { reader: mergeSegments(job.segmentId, live), close: closeAll };
}
