/**
 * Which segments of an index to merge next: a pure function of the segment list, so that it is
 * tested on its own. Levels: L0 holds flushed segments; enough of them merge into one L1; L1
 * segments merge into a larger L1, or into L2 once the result is big enough; L2 is final.
 */

export interface MergeCandidate {
  id: string;
  level: number;
  numDocs: number;
  sizeBytes: number;
}

export interface MergePolicyOptions {
  /** L0 segments that trigger a merge into L1 */
  l0MergeFactor: number;
  /** L1 segments that trigger a merge of L1 segments */
  l1MergeFactor: number;
  /** most segments merged at once */
  maxMergeSegments: number;
  /** a merge of L1 segments whose result has at least this many docs goes to L2 */
  l2MinDocs: number;
  /** segments at or above this many docs are not merged again */
  maxSegmentDocs: number;
}

export const DEFAULT_MERGE_POLICY: MergePolicyOptions = {
  l0MergeFactor: 8,
  l1MergeFactor: 8,
  maxMergeSegments: 16,
  l2MinDocs: 10_000_000,
  maxSegmentDocs: 50_000_000,
};

export interface MergePlan {
  from: number;
  to: number;
  /** ids of the segments to merge, in the order given */
  segmentIds: string[];
}

/** The next merge to run, or null when the index is in shape. */
export function nextMerge(segments: readonly MergeCandidate[], opts: MergePolicyOptions = DEFAULT_MERGE_POLICY): MergePlan | null {
  const mergeable = segments.filter((s) => s.numDocs < opts.maxSegmentDocs);
  const l0 = mergeable.filter((s) => s.level === 0);
  if (l0.length >= opts.l0MergeFactor) {
    return { from: 0, to: 1, segmentIds: l0.slice(0, opts.maxMergeSegments).map((s) => s.id) };
  }
  const l1 = mergeable.filter((s) => s.level === 1).sort((a, b) => a.numDocs - b.numDocs);
  if (l1.length >= opts.l1MergeFactor) {
    const picked = l1.slice(0, opts.maxMergeSegments);
    const docs = picked.reduce((n, s) => n + s.numDocs, 0);
    return { from: 1, to: docs >= opts.l2MinDocs ? 2 : 1, segmentIds: picked.map((s) => s.id) };
  }
  return null;
}

/**
 * The merge for an index that has gone idle: its L0 segments, which flushes write as quick files
 * (segment/compression.ts), merged into one compact L1 segment, so that an index at rest takes
 * the compact size even when it never gathers `l0MergeFactor` flushes; null when it has none.
 */
export function idleMerge(segments: readonly MergeCandidate[], opts: MergePolicyOptions = DEFAULT_MERGE_POLICY): MergePlan | null {
  const l0 = segments.filter((s) => s.level === 0 && s.numDocs < opts.maxSegmentDocs);
  if (l0.length === 0) return null;
  return { from: 0, to: 1, segmentIds: l0.slice(0, opts.maxMergeSegments).map((s) => s.id) };
}
