/**
 * How hard a segment write compresses. A flush writes `quick` files: it runs beside ingest on a
 * cache node, and its files are merged soon. A merge (compaction, on the storage role) writes
 * `compact` ones, which is where the stored size is made. Both are the same format; only the
 * doc-store layout and the codec levels differ (docs/segment-format.md, "Quick and compact").
 */
import type { DocStoreLayout } from './doc-store.js';

export type Compression = 'quick' | 'compact';

export interface CompressionLevels {
  docStore: DocStoreLayout;
  /** raw deflate level of position streams */
  positionsLevel: number;
  /** Brotli quality of term blocks */
  termBlockQuality: number;
}

export const COMPRESSION_LEVELS: Readonly<Record<Compression, CompressionLevels>> = {
  quick: { docStore: 'text', positionsLevel: 1, termBlockQuality: 1 },
  // positions: level 6 is 4 % smaller than level 4 for twice its time (about 3 % of a segment
  // write); level 9 saves 2 % more for five times the time of level 6
  compact: { docStore: 'columns', positionsLevel: 6, termBlockQuality: 5 },
};
