/**
 * The read surface every searchable segment offers: the in-memory segment (memtable) that takes
 * writes and the immutable segment files flushed from it. Search, aggregations, the segment
 * serializer and compaction work only through this interface, so they treat both alike.
 *
 * Doc ids are segment-local, dense (0 .. numDocs-1) and in insertion order. Every list of doc ids
 * is a sorted Uint32Array. Columns are typed arrays indexed by doc id.
 */

/** Dynamic field types, fixed on first sight of a field within an index. */
export type FieldType = 'text' | 'keyword' | 'long' | 'double' | 'boolean' | 'date';

export interface FieldInfo {
  name: string;
  type: FieldType;
}

/** Doc ids with, for each, the token positions of one term (text fields only). */
export interface PositionPostings {
  docs: Uint32Array;
  /** positions of docs[i] are positions.subarray(offsets[i], offsets[i + 1]); length docs.length + 1 */
  offsets: Uint32Array;
  positions: Uint32Array;
}

/** Keyword values as ordinals into the segment's sorted term list (sort, aggregations). */
export interface OrdinalColumn {
  /** first value of each doc as an index into `terms`, -1 when the doc has no value */
  ords: Int32Array;
  /** the field's distinct values, sorted ascending (by UTF-16 code units, as JS `<`) */
  terms: readonly string[];
}

/** The docs that have a value of a numeric field, ordered by value, then doc id. */
export interface PointsIndex {
  /** ascending */
  values: Float64Array;
  /** docs[i] holds values[i] */
  docs: Uint32Array;
}

export interface SegmentReader {
  /** unique and stable for the life of the segment (file name stem for segment files) */
  readonly id: string;
  /** true for a memtable: it still grows, so nothing derived from it may be cached by segment */
  readonly live?: boolean;
  readonly numDocs: number;
  /** smallest and largest `_ts` in the segment (epoch ms); +Infinity/-Infinity when empty */
  readonly minTs: number;
  readonly maxTs: number;
  /** largest `_lid` in the segment (0 when empty): WAL replay skips what a segment already holds */
  readonly maxLid: number;

  /** Fields in order of first occurrence, with the type they have in this segment. */
  fields(): readonly FieldInfo[];
  fieldType(field: string): FieldType | undefined;

  /**
   * Sorted distinct terms of an indexed field (text tokens, keywords, booleans as
   * "true"/"false"), ascending, starting at the first term >= `from` when given.
   */
  terms(field: string, from?: string): Iterable<string>;
  /** Number of docs holding the term; 0 when absent. */
  docFreq(field: string, term: string): number;
  /** Sorted doc ids holding the term, or null when absent. */
  postings(field: string, term: string): Uint32Array | null;
  /** Doc ids and positions of a term of a text field, or null when absent. */
  positions(field: string, term: string): PositionPostings | null;

  /**
   * Numeric view of a long, double, date or boolean (1/0) field, or `_ts`, `_lid`: the first
   * value of each doc, NaN where the doc has none. Null for other fields.
   */
  numeric(field: string): Float64Array | null;
  /**
   * The points index of a numeric field (as `numeric` gives it), for ranges that select few docs;
   * offered by segments that no longer change. Null when the field has no numeric view.
   */
  pointsIndex?(field: string): PointsIndex | null;
  /** Ordinals of a keyword field (first value per doc), or null for other fields. */
  ordinals(field: string): OrdinalColumn | null;
  /** Sorted doc ids of docs that hold at least one value for the field. */
  exists(field: string): Uint32Array;

  /** `_id` of each doc: 64-bit unsigned numbers. */
  ids(): BigUint64Array;
  /**
   * The doc holding a generated `_id`, or -1; offered by segments that no longer change (others
   * are scanned).
   */
  docOfGeneratedId?(id: bigint): number;
  /** The document as stored, a JSON object text including `_ts` and `_lid`. */
  source(doc: number): string;
  /**
   * The stored source as UTF-8 bytes, from readers that hold sources so (the memtable): a view,
   * valid until the reader changes. Writers use it to copy sources without making strings.
   */
  sourceBytes?(doc: number): Uint8Array;
}
