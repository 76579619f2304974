/**
 * Documents scanned straight from their JSON text (see src/engine/ingest): per value, the field
 * slot and either a byte range of the text (strings, without quotes, escapes not decoded) or a
 * number (numbers, dates, booleans as 1/0). The memtable indexes them without building a JS
 * object or string per value.
 */
import type { FieldType } from '../segment-reader.js';

/** A field as the scanner knows it: slot numbers are stable for the life of an index. */
export interface FieldSlot {
  readonly slot: number;
  readonly name: string;
  readonly type: FieldType;
}

/** Values of many scanned documents, in flat typed arrays; doc k owns values [valueStart[k], valueStart[k + 1]). */
export interface ScannedValues {
  /** the text the byte ranges point into */
  readonly bytes: Uint8Array;
  readonly slots: readonly FieldSlot[];
  readonly slot: Int32Array;
  readonly start: Uint32Array;
  readonly end: Uint32Array;
  readonly num: Float64Array;
}
