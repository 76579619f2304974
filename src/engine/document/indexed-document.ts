/**
 * A document ready for a segment: identity, time, the stored JSON text and its flattened, typed
 * fields. It is what the write-ahead log replays into and what the memtable takes.
 */
import type { FieldType } from '../segment-reader.js';

export interface IndexedField {
  /** dotted path of the value in the original document (objects are flattened) */
  name: string;
  type: FieldType;
  /**
   * One entry per value (arrays give several). text and keyword: strings; long and double:
   * numbers; date: epoch ms numbers; boolean: booleans.
   */
  values: Array<string | number | boolean>;
}

export interface IndexedDocument {
  /** `_id`: unique, time-ordered 64-bit number */
  id: bigint;
  /** `_lid`: per-index line number, dense and increasing from 1 */
  lid: number;
  /** `_ts`: epoch ms */
  ts: number;
  /** the document as stored and returned in `_source`: JSON object text with `_ts` and `_lid` */
  source: string;
  /** every field except `_ts`, `_lid`, `_id` (which have their own columns) */
  fields: IndexedField[];
}
