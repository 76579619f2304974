/**
 * A decoded doc-store block, whatever its format version: gives back the stored source of each
 * of its docs. Sources may leave out values the segment's columns hold (`_ts`, `_lid`, keyword
 * terms, numbers); the block asks `SourceColumns` for them, so a read that needs none loads none.
 */
import type { OrdinalColumn } from '../segment-reader.js';

export interface SourceColumns {
  /** the numeric column of `field` (`_ts` and `_lid` included), null when none */
  numeric(field: string): Float64Array | null;
  /** the keyword column of `field`, null when none */
  ordinals(field: string): OrdinalColumn | null;
}

export interface DocBlock {
  readonly count: number;
  /** decoded bytes held, for the reader's cache */
  readonly byteSize: number;
  /**
   * The source of doc i of the block, which is segment doc `doc` (throws FormatError when the
   * block is damaged or names a column value the segment does not have).
   */
  text(i: number, doc: number, columns: SourceColumns): string;
}
