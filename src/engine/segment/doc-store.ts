/**
 * Doc-store blocks: the JSON source texts of consecutive docs, about 64 KiB uncompressed per
 * block, compressed with Brotli (quality 5, text mode). Uncompressed block layout:
 *
 *   u8 encoding (0 UTF-8, 1 UTF-16LE) · per doc varint (byte length * 4 + suffix code) · texts
 *
 * Suffix code 1: the text ended with `,"_ts":<ts>,"_lid":<lid>}`, code 2: with `,"_lid":<lid>}`
 * (the doc's own `_ts` and `_lid` as JS number strings, as documents are built when the client
 * sends no `_ts`, or sends one); that suffix is stored as a bare `}` and the reader puts it back
 * from the columns. Those digits are most of what Brotli cannot squeeze out of a line. Code 0:
 * the text is stored as it is.
 *
 * Brotli q5 measured on generated mixed logs (~210 B/line, 64 KiB blocks): 16.2 % of the raw
 * text at ~70 MB/s; deflate level 6: 17.1 % at ~90 MB/s; deflate 9: 16.4 % at ~55 MB/s.
 */
import zlib from 'node:zlib';
import { FormatError } from './byte-reader.js';
import { ByteWriter } from './byte-writer.js';
import { UTF16, UTF8, isWellFormed } from './strings.js';

export const DOC_BLOCK_TARGET_BYTES = 64 * 1024;

const BROTLI_PARAMS = {
  [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
};

const NO_SUFFIX = 0;
const TS_LID_SUFFIX = 1;
const LID_SUFFIX = 2;

/** The members a suffix code stands for (without the closing brace). */
function suffixText(code: number, ts: number, lid: number): string {
  if (code === TS_LID_SUFFIX) return `,"_ts":${String(ts)},"_lid":${String(lid)}`;
  if (code === LID_SUFFIX) return `,"_lid":${String(lid)}`;
  return '';
}

/** The suffix code for a text, and the text without the suffix's members. */
function stripSuffix(text: string, ts: number, lid: number): [number, string] {
  if (!text.endsWith('}')) return [NO_SUFFIX, text];
  for (const code of [TS_LID_SUFFIX, LID_SUFFIX]) {
    const members = suffixText(code, ts, lid);
    const at = text.length - 1 - members.length;
    if (at > 0 && text.startsWith(members, at)) return [code, text.slice(0, at) + '}'];
  }
  return [NO_SUFFIX, text];
}

/**
 * Compresses the texts of one block; `ts` and `lid` are the columns of the block's docs (index 0
 * is the block's first doc).
 */
export function encodeDocBlock(texts: readonly string[], ts: Float64Array, lid: Float64Array): Buffer {
  const enc = texts.every(isWellFormed) ? UTF8 : UTF16;
  const codes = new Uint8Array(texts.length);
  const encoded = texts.map((t, i) => {
    const [code, stored] = stripSuffix(t, ts[i]!, lid[i]!);
    codes[i] = code;
    return Buffer.from(stored, enc === UTF8 ? 'utf8' : 'utf16le');
  });
  let total = 0;
  for (const b of encoded) total += b.length;
  const w = new ByteWriter(16 + texts.length * 3 + total);
  w.u8(enc);
  for (let i = 0; i < encoded.length; i++) w.varint(encoded[i]!.length * 4 + codes[i]!);
  for (const b of encoded) w.bytes(b);
  const raw = w.view8();
  return zlib.brotliCompressSync(raw, {
    params: { ...BROTLI_PARAMS, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
}

export interface DocBlock {
  text: Buffer;
  encoding: number;
  /** byte offsets of each doc's text in `text`; length count + 1 */
  starts: Float64Array;
  /** suffix code of each doc (0: stored as it is) */
  suffixes: Uint8Array;
}

/** Decompresses a block of `count` docs. */
export function decodeDocBlock(compressed: Uint8Array, count: number): DocBlock {
  let text: Buffer;
  try {
    text = zlib.brotliDecompressSync(compressed);
  } catch {
    throw new FormatError('doc block does not decompress');
  }
  if (text.length < 1) throw new FormatError('empty doc block');
  const encoding = text[0]!;
  const starts = new Float64Array(count + 1);
  let pos = 1;
  const lens = new Float64Array(count);
  const suffixes = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (pos >= text.length) throw new FormatError('doc block header past end');
      const b = text[pos++]!;
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
  if (at !== text.length) throw new FormatError('doc block length mismatch');
  return { text, encoding, starts, suffixes };
}

/** The source of doc i of the block, given that doc's `_ts` and `_lid`. */
export function docText(block: DocBlock, i: number, ts: number, lid: number): string {
  const text = block.text.toString(block.encoding === UTF8 ? 'utf8' : 'utf16le', block.starts[i]!, block.starts[i + 1]!);
  const code = block.suffixes[i]!;
  if (code === NO_SUFFIX) return text;
  if (!text.endsWith('}')) throw new FormatError('stripped source does not end with a brace');
  return text.slice(0, -1) + suffixText(code, ts, lid) + '}';
}

