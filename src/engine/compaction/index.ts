/**
 * Compaction: merging an index's small segments into larger ones (levels L0 → L1 → L2), so
 * searches open fewer files and storage shrinks. The policy is a pure function; the compactor
 * writes the merged file, swaps it in through the catalog, and deletes the replaced files.
 */
export { nextMerge, idleMerge, DEFAULT_MERGE_POLICY } from './merge-policy.js';
export type { MergeCandidate, MergePlan, MergePolicyOptions } from './merge-policy.js';
export { Compactor, NO_COMPACTION_EVENTS } from './compactor.js';
export type { CompactionEvents } from './compactor.js';
export { mergeFromStore } from './store-merge.js';
export type { StoreMergeInput, StoreMergeResult } from './store-merge.js';
