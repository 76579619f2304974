/**
 * A decoded doc-store block, whatever its format version: gives back the stored source of each
 * of its docs. Sources may leave out values the segment's columns hold (`_ts`, `_lid`, keyword
 * terms, numbers); the block asks `SourceColumns` for them, so a read that needs none loads none.
 */
export interface SourceColumns {
  /** the doc's value in the numeric column of `field` (`_ts` and `_lid` included), NaN when none */
  numberOf(field: string, doc: number): number;
  /** the doc's first value in the keyword column of `field`, undefined when none */
  keywordOf(field: string, doc: number): string | undefined;
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
