/**
 * Constants of the column-wise doc block (format version 2), shared by its encoder and decoder.
 * Uncompressed layout (then Brotli):
 *
 *   u8 encoding (0 UTF-8, 1 UTF-16LE) · varint count ·
 *   varint numShapes · per shape: varint byte length · shape text · per slot (marker) varint
 *     stream index ·
 *   varint numStreams · per stream: u8 slot kind · u8 coding · varint value count ·
 *     varint data byte length · varint key byte length · key ·
 *   per doc varint shape index ·
 *   the streams' data, in stream order
 *
 * A shape is the source with each member value replaced by its slot marker (source-scanner.ts);
 * a stream holds, in doc order, the values of one key and slot kind. The streams of column slots
 * hold no bytes: their key names the field whose column gives the value.
 */

/** values joined by a line feed (which string values, number texts and keys never hold raw) */
export const CODING_TEXT = 0;
/** varint numDistinct · varint byte length · distinct values joined by line feeds · per value
 * its index: u8 when numDistinct <= 256, else varint */
export const CODING_DICT = 1;
/** varint zigzag(v) per value */
export const CODING_INT = 2;
/** varint zigzag(v - previous value) per value, the first against 0 */
export const CODING_INT_DELTA = 3;
/** u8 per value (literal codes) */
export const CODING_CODES = 4;
/** varint byte length per value, then the values back to back (whole texts) */
export const CODING_LENGTHS = 5;
/** no bytes: the values are in the column of the field the stream's key names */
export const CODING_NONE = 6;
/**
 * Free text with its numbers apart: varint byte length · the values joined by line feeds, each
 * canonical digit run (up to 15 digits, no leading zero but in "0") replaced by NUMBER_MARK ·
 * the numbers as varints, grouped by context: the up to 3 ASCII code units before the mark in
 * its value (fewer at the value's start or before a non-ASCII one), groups in order of first
 * appearance, numbers in order within a group · then per HEX_MARK, in order: u8 byte count n
 * (4..16) · n bytes, the 2n lowercase hex digits of a token (a run of them standing alone, not a
 * number above) two per byte, the first in the high nibble. Numbers that follow the same text
 * (the bytes of a status code, the octets of an address) then sit together, which compresses far
 * better than digits scattered through the text; ids and hashes take half their bytes.
 */
export const CODING_TEMPLATE = 7;

export const NUMBER_MARK = 0x01;
export const HEX_MARK = 0x02;
export const MIN_HEX_BYTES = 4;
export const MAX_HEX_BYTES = 16;
export const MAX_TEMPLATE_DIGITS = 15;

/** The context key of a number from the up to 3 ASCII code units before it (c1 nearest). */
export function numberContext(taken: number, c1: number, c2: number, c3: number): number {
  return taken | (c1 << 2) | (c2 << 9) | (c3 << 16);
}

/**
 * The context key of a number whose text starts at byte `at` of a value starting at byte
 * `start`: the up to three ASCII characters before it (`unit` 1 for UTF-8, 2 for UTF-16LE).
 */
export function numberContextBefore(bytes: Uint8Array, start: number, at: number, unit: number): number {
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  let taken = 0;
  for (let q = at - unit; q >= start && taken < 3; q -= unit) {
    const u = unit === 1 ? bytes[q]! : bytes[q]! | (bytes[q + 1]! << 8);
    if (u >= 0x80) break;
    if (taken === 0) c1 = u;
    else if (taken === 1) c2 = u;
    else c3 = u;
    taken++;
  }
  return numberContext(taken, c1, c2, c3);
}

export const VALUE_SEPARATOR = '\n';
export const SEPARATOR_CODE = 0x0a;

export function zigzag(v: number): number {
  return v >= 0 ? v * 2 : -v * 2 - 1;
}

export function unzigzag(z: number): number {
  return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
}
