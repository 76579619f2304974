/**
 * Doc-store blocks of format version 1, read only: the JSON source texts of consecutive docs,
 * compressed with Brotli. Uncompressed block layout:
 *
 *   u8 encoding (0 UTF-8, 1 UTF-16LE) · per doc varint (byte length * 4 + suffix code) · texts
 *
 * Suffix code 1: the text ended with `,"_ts":<ts>,"_lid":<lid>}`, code 2: with `,"_lid":<lid>}`
 * (the doc's own `_ts` and `_lid` as JS number strings); that suffix is stored as a bare `}` and
 * the reader puts it back from the columns. Code 0: the text is stored as it is.
 */
import { FormatError } from './byte-reader.js';
import type { DocBlock, SourceColumns } from './doc-block.js';
import { UTF8 } from './strings.js';

const NO_SUFFIX = 0;
const TS_LID_SUFFIX = 1;
const LID_SUFFIX = 2;

/** The members a suffix code stands for (without the closing brace). */
function suffixText(code: number, ts: number, lid: number): string {
  if (code === TS_LID_SUFFIX) return `,"_ts":${String(ts)},"_lid":${String(lid)}`;
  if (code === LID_SUFFIX) return `,"_lid":${String(lid)}`;
  return '';
}

export class DocBlockV1 implements DocBlock {
  readonly byteSize: number;
  private readonly encoding: number;
  /** byte offsets of each doc's text; length count + 1 */
  private readonly starts: Float64Array;
  /** suffix code of each doc (0: stored as it is) */
  private readonly suffixes: Uint8Array;

  constructor(
    private readonly bytes: Buffer,
    readonly count: number,
  ) {
    if (bytes.length < 1) throw new FormatError('empty doc block');
    this.encoding = bytes[0]!;
    const starts = new Float64Array(count + 1);
    const lens = new Float64Array(count);
    const suffixes = new Uint8Array(count);
    let pos = 1;
    for (let i = 0; i < count; i++) {
      let v = 0;
      let mul = 1;
      for (;;) {
        if (pos >= bytes.length) throw new FormatError('doc block header past end');
        const b = bytes[pos++]!;
        v += (b & 0x7f) * mul;
        if (b < 0x80) break;
        mul *= 0x80;
      }
      lens[i] = Math.floor(v / 4);
      suffixes[i] = v % 4;
      if (suffixes[i]! > LID_SUFFIX) throw new FormatError('bad suffix code');
    }
    let at = pos;
    for (let i = 0; i < count; i++) {
      starts[i] = at;
      at += lens[i]!;
    }
    starts[count] = at;
    if (at !== bytes.length) throw new FormatError('doc block length mismatch');
    this.starts = starts;
    this.suffixes = suffixes;
    this.byteSize = bytes.length + count * 9;
  }

  text(i: number, doc: number, columns: SourceColumns): string {
    const text = this.bytes.toString(this.encoding === UTF8 ? 'utf8' : 'utf16le', this.starts[i]!, this.starts[i + 1]!);
    const code = this.suffixes[i]!;
    if (code === NO_SUFFIX) return text;
    if (!text.endsWith('}')) throw new FormatError('stripped source does not end with a brace');
    const ts = columns.numeric('_ts')?.[doc] ?? NaN;
    const lid = columns.numeric('_lid')?.[doc] ?? NaN;
    return text.slice(0, -1) + suffixText(code, ts, lid) + '}';
  }
}
