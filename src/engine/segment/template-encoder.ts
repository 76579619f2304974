/**
 * The TEMPLATE coding of a string stream (doc-block-layout.ts): free text with its numbers and
 * hex ids taken out. Each value's bytes are written natively, then compacted in place: canonical
 * digit runs become NUMBER_MARK (their numbers go to groups by the text before them), standalone
 * hex tokens become HEX_MARK (their bytes follow the numbers).
 */
import { ByteWriter } from './byte-writer.js';
import { ContextGroups } from './context-groups.js';
import {
  CODING_TEMPLATE,
  HEX_MARK,
  MAX_HEX_BYTES,
  MAX_TEMPLATE_DIGITS,
  MIN_HEX_BYTES,
  NUMBER_MARK,
  SEPARATOR_CODE,
  numberContextBefore,
} from './doc-block-layout.js';
import { UTF16, type StringEncoding } from './strings.js';

export interface EncodedStream {
  coding: number;
  bytes: Uint8Array;
}

const HEX_VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;

function isHexDigit(b: number): boolean {
  return HEX_VALUE[b]! >= 0;
}

function isWordChar(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f;
}

/**
 * The end of a hex token starting at bytes[p]: an even run of 2 * MIN_HEX_BYTES to
 * 2 * MAX_HEX_BYTES lowercase hex digits (not a number the template takes apart: digits only and
 * short enough) followed by no word character; 0 when there is none.
 */
function hexTokenEnd(bytes: Uint8Array, p: number, end: number, unit: number): number {
  let q = p;
  let letters = 0;
  while (q < end && (unit === 1 || bytes[q + 1] === 0) && isHexDigit(bytes[q]!)) {
    if (bytes[q]! > 0x39) letters++;
    q += unit;
  }
  const digits = (q - p) / unit;
  if (digits % 2 !== 0 || digits < 2 * MIN_HEX_BYTES || digits > 2 * MAX_HEX_BYTES) return 0;
  if (letters === 0 && digits <= MAX_TEMPLATE_DIGITS) return 0;
  if (q < end && (unit === 1 || bytes[q + 1] === 0) && isWordChar(bytes[q]!)) return 0;
  return q;
}


/**
 * CODING_TEMPLATE (doc-block-layout.ts), or null when no value holds a number or one holds the
 * mark itself. One pass per value writes the template bytes and takes the numbers out.
 */
export function encodeTemplate(values: readonly string[], enc: StringEncoding): EncodedStream | null {
  const utf16 = enc === UTF16;
  // 3 bytes per code unit at most (a surrogate pair: 4 bytes for 2), 2 in UTF-16
  let capacity = 16;
  for (const v of values) capacity += v.length * 3 + 2;
  const text = Buffer.allocUnsafe(capacity);
  let o = 0;
  const groups = new ContextGroups();
  /** per hex token: u8 byte count · bytes */
  const hex = new ByteWriter(256);
  let hexTokens = 0;
  let numberGroup = new Uint32Array(1024);
  let numberValue = new Float64Array(1024);
  let numbers = 0;
  const unit = utf16 ? 2 : 1;
  const encoding = utf16 ? 'utf16le' : 'utf8';
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    if (k > 0) {
      text[o++] = SEPARATOR_CODE;
      if (utf16) text[o++] = 0;
    }
    // the value's bytes are written natively, then compacted in place: digit runs become marks
    const valueStart = o;
    const end = o + text.write(v, o, encoding);
    let w = o;
    let afterWordChar = false;
    for (let p = o; p < end; p += unit) {
      const b = text[p]!;
      const ascii = unit === 1 || text[p + 1] === 0;
      if (ascii && !afterWordChar && isHexDigit(b)) {
        const q = hexTokenEnd(text, p, end, unit);
        if (q > 0) {
          hex.u8((q - p) / unit / 2);
          for (let d = p; d < q; d += 2 * unit) hex.u8((HEX_VALUE[text[d]!]! << 4) | HEX_VALUE[text[d + unit]!]!);
          hexTokens++;
          text[w] = HEX_MARK;
          if (unit === 2) text[w + 1] = 0;
          w += unit;
          p = q - unit;
          afterWordChar = true;
          continue;
        }
      }
      afterWordChar = ascii && isWordChar(b);
      if (b < 0x30 || b > 0x39 || !ascii) {
        if ((b === NUMBER_MARK || b === HEX_MARK) && ascii) return null;
        text[w] = b;
        if (unit === 2) text[w + 1] = text[p + 1]!;
        w += unit;
        continue;
      }
      let q = p + unit;
      while (q < end && text[q]! >= 0x30 && text[q]! <= 0x39 && (unit === 1 || text[q + 1] === 0)) q += unit;
      const digits = (q - p) / unit;
      if (digits <= MAX_TEMPLATE_DIGITS && (digits === 1 || b !== 0x30)) {
        let n = 0;
        for (let d = p; d < q; d += unit) n = n * 10 + (text[d]! - 0x30);
        if (numbers === numberValue.length) {
          const g = new Uint32Array(numbers * 2);
          g.set(numberGroup);
          numberGroup = g;
          const nv = new Float64Array(numbers * 2);
          nv.set(numberValue);
          numberValue = nv;
        }
        // the context is read back from the template bytes, as the decoder reads it
        numberGroup[numbers] = groups.groupOf(numberContextBefore(text, valueStart, w, unit));
        numberValue[numbers++] = n;
        text[w] = NUMBER_MARK;
        if (unit === 2) text[w + 1] = 0;
        w += unit;
      } else {
        text.copyWithin(w, p, q);
        w += q - p;
      }
      p = q - unit;
    }
    o = w;
  }
  if (numbers === 0 && hexTokens === 0) return null;
  const w = new ByteWriter(16 + o + numbers * 3 + hex.length);
  w.varint(o);
  w.bytes(text.subarray(0, o));
  // group by group, in order within a group: a counting sort by group number
  const next = new Uint32Array(groups.size + 1);
  for (let i = 0; i < numbers; i++) next[numberGroup[i]! + 1]!++;
  for (let g = 0; g < groups.size; g++) next[g + 1]! += next[g]!;
  const ordered = new Float64Array(numbers);
  for (let i = 0; i < numbers; i++) ordered[next[numberGroup[i]!]!++] = numberValue[i]!;
  for (let i = 0; i < numbers; i++) w.varint(ordered[i]!);
  w.bytes(hex.view8());
  return { coding: CODING_TEMPLATE, bytes: w.view8() };
}

