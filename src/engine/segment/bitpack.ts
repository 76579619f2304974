/**
 * The packed u32 stream, the integer encoding behind postings, positions and integer columns.
 * Values go in blocks of 128; the last, partial block (the tail) is packed byte-wise:
 *
 *   u8 code[nFull] · zero padding to a 4-byte boundary (only when nFull > 0) ·
 *   per full block, u32 words little-endian:
 *     code 0..32     bit-packed: 4 * code words, value i at bits i*code .. i*code+code-1
 *     code 33..63    split (format 2), k = code - 33: a word c · 4 * k words, the k low bits
 *                    of each value bit-packed as for code k · c words, the high parts (v >>> k)
 *                    in unary as below. Rice coding with the two parts apart, so that both
 *                    decode a word at a time: near the entropy of geometric gaps (doc ids of
 *                    mid-frequency terms, positions, long-tailed numbers) where packing pays for
 *                    the widest value of the block
 *     code 129..255  unary: code - 128 words; value i is the number of zero bits before the
 *                    i-th one bit (cheaper than packing for dense doc-id gaps)
 *   tail (count % 128 values, when any): u8 width · ceil(tailCount * width / 8) bytes, value i at
 *   bits i*width.. counting from bit 0 of the first byte
 *
 * Alignment is relative to the start of the enclosing blob, which readers load on its own into
 * a fresh buffer, so the words can be read through a Uint32Array without copying.
 */
import os from 'node:os';
import type { ByteWriter } from './byte-writer.js';
import { FormatError } from './byte-reader.js';

export const BLOCK_LEN = 128;
const UNARY = 128;
const SPLIT = 33;
const MAX_SPLIT_K = 30;

if (os.endianness() !== 'LE') throw new Error('segment files need a little-endian platform');

const packScratch = new Uint32Array(BLOCK_LEN);
const packBytes = new Uint8Array(packScratch.buffer);

/** Words of a split block with parameter k, given the sum of the values shifted right by k. */
function splitWords(k: number, highSum: number): number {
  return 1 + 4 * k + Math.ceil((highSum + BLOCK_LEN) / 32);
}

/** The block code for values[start, start + 128): packed width, split parameter or unary words. */
function blockCode(values: Uint32Array, start: number, split: boolean): number {
  let acc = 0;
  let sum = 0;
  for (let i = start; i < start + BLOCK_LEN; i++) {
    const v = values[i]!;
    acc |= v;
    sum += v;
  }
  const width = 32 - Math.clz32(acc);
  const unaryWords = Math.ceil((sum + BLOCK_LEN) / 32);
  let best = width;
  let bestWords = width * 4;
  if (unaryWords < bestWords && unaryWords <= 255 - UNARY) {
    best = UNARY + unaryWords;
    bestWords = unaryWords;
  }
  // narrow blocks gain too little from splitting to be worth the search
  if (!split || width < 5) return best;
  // for geometric values the best k is near log2 of the mean times ln 2: try it and its neighbours
  const guess = Math.floor(Math.log2(Math.max(1, (sum / BLOCK_LEN) * Math.LN2)));
  const k0 = Math.max(0, Math.min(MAX_SPLIT_K - 2, guess - 1));
  let h0 = 0;
  let h1 = 0;
  let h2 = 0;
  for (let i = start; i < start + BLOCK_LEN; i++) {
    const v = values[i]!;
    h0 += v >>> k0;
    h1 += v >>> (k0 + 1);
    h2 += v >>> (k0 + 2);
  }
  const sums = [h0, h1, h2];
  // a split block decodes in two passes: it must save an eighth of the words to be chosen
  const worthIt = bestWords - (bestWords >>> 3);
  for (let d = 0; d < 3; d++) {
    const words = splitWords(k0 + d, sums[d]!);
    if (words < worthIt && words < bestWords) {
      best = SPLIT + k0 + d;
      bestWords = words;
    }
  }
  return best;
}

function packBlock(values: Uint32Array, base: number, code: number): number {
  if (code >= SPLIT && code < UNARY) return packSplitBlock(values, base, code - SPLIT);
  if (code > UNARY) {
    const nWords = code - UNARY;
    packScratch.fill(0, 0, nWords);
    let bit = 0;
    for (let i = 0; i < BLOCK_LEN; i++) {
      bit += values[base + i]!;
      packScratch[bit >>> 5]! |= 1 << (bit & 31);
      bit++;
    }
    return nWords;
  }
  const width = code;
  const nWords = width * 4;
  packScratch.fill(0, 0, nWords);
  let bit = 0;
  for (let i = 0; i < BLOCK_LEN; i++) {
    const v = values[base + i]!;
    const idx = bit >>> 5;
    const sh = bit & 31;
    packScratch[idx]! |= v << sh;
    if (sh + width > 32) packScratch[idx + 1]! |= v >>> (32 - sh);
    bit += width;
  }
  return nWords;
}

/** The split block of parameter k in packScratch: count word, low bits, unary high parts. */
function packSplitBlock(values: Uint32Array, base: number, k: number): number {
  let highSum = 0;
  for (let i = 0; i < BLOCK_LEN; i++) highSum += values[base + i]! >>> k;
  const unaryWords = Math.ceil((highSum + BLOCK_LEN) / 32);
  const nWords = 1 + 4 * k + unaryWords;
  packScratch.fill(0, 0, nWords);
  packScratch[0] = unaryWords;
  const mask = k === 0 ? 0 : 0xffffffff >>> (32 - k);
  let bit = 32;
  for (let i = 0; i < BLOCK_LEN; i++) {
    const v = (values[base + i]! & mask) >>> 0;
    const idx = bit >>> 5;
    const sh = bit & 31;
    packScratch[idx]! |= v << sh;
    if (sh + k > 32) packScratch[idx + 1]! |= v >>> (32 - sh);
    bit += k;
  }
  bit = (1 + 4 * k) * 32;
  for (let i = 0; i < BLOCK_LEN; i++) {
    bit += values[base + i]! >>> k;
    packScratch[bit >>> 5]! |= 1 << (bit & 31);
    bit++;
  }
  return nWords;
}

/** Appends values[start, start + count) as a packed u32 stream. */
export function encodeU32Stream(out: ByteWriter, values: Uint32Array, start: number, count: number, split = true): void {
  const nFull = count >>> 7;
  if (nFull > 0) {
    const codesAt = out.reserve(nFull);
    const codes = new Uint8Array(nFull);
    for (let b = 0; b < nFull; b++) codes[b] = blockCode(values, start + b * BLOCK_LEN, split);
    out.raw().set(codes, codesAt);
    out.align4();
    for (let b = 0; b < nFull; b++) {
      const nWords = packBlock(values, start + b * BLOCK_LEN, codes[b]!);
      if (nWords > 0) out.bytes(packBytes.subarray(0, nWords * 4));
    }
  }
  const tailStart = start + nFull * BLOCK_LEN;
  const tail = start + count - tailStart;
  if (tail === 0) return;
  let acc = 0;
  for (let i = tailStart; i < start + count; i++) acc |= values[i]!;
  const width = 32 - Math.clz32(acc);
  out.u8(width);
  const nBytes = Math.ceil((tail * width) / 8);
  const at = out.reserve(nBytes);
  const bytes = out.raw();
  bytes.fill(0, at, at + nBytes);
  let bit = 0;
  for (let i = tailStart; i < start + count; i++) {
    let v = values[i]!;
    let left = width;
    while (left > 0) {
      const byte = at + (bit >>> 3);
      const sh = bit & 7;
      const take = Math.min(8 - sh, left);
      bytes[byte]! |= (v & ((1 << take) - 1)) << sh;
      v = Math.floor(v / 2 ** take);
      left -= take;
      bit += take;
    }
  }
}

/** Unpacks BLOCK_LEN values of `width` bits (1..31) from words[wi...] into out[o...]. */
function unpackBlock(words: Uint32Array, wi: number, width: number, out: Uint32Array, o: number): void {
  const mask = 0xffffffff >>> (32 - width);
  let bit = 0;
  for (let i = 0; i < BLOCK_LEN; i++) {
    const idx = wi + (bit >>> 5);
    const sh = bit & 31;
    let v = words[idx]! >>> sh;
    if (sh + width > 32) v |= words[idx + 1]! << (32 - sh);
    out[o + i] = v & mask;
    bit += width;
  }
}

/** Decodes the split block of parameter k at words[wi] into out[o...]; returns the next word. */
function decodeSplitBlock(words: Uint32Array, wi: number, k: number, out: Uint32Array, o: number): number {
  const unaryWords = words[wi]!;
  let w = wi + 1;
  if (k > 0) {
    unpackBlock(words, w, k, out, o);
    w += 4 * k;
  } else {
    out.fill(0, o, o + BLOCK_LEN);
  }
  // value n = (its high part << k) | its low bits; a damaged block gives wrong values, never
  // out-of-range ones (posting blobs are range-checked, other blobs carry a CRC)
  let last = -1;
  let n = 0;
  for (let u = 0; u < unaryWords && n < BLOCK_LEN; u++) {
    let x = words[w + u]! | 0;
    const base = u * 32;
    while (x !== 0 && n < BLOCK_LEN) {
      const bit = base + 31 - Math.clz32(x & -x);
      out[o + n] = ((bit - last - 1) << k) | out[o + n]!;
      n++;
      last = bit;
      x &= x - 1;
    }
  }
  if (n !== BLOCK_LEN) throw new FormatError('split block holds too few values');
  return w + unaryWords;
}

/**
 * Decodes `count` values of a packed u32 stream at bytes[pos] into out[outStart...]; returns the
 * position after the stream. `bytes` must start at the enclosing blob's first byte.
 */
export function decodeU32Stream(bytes: Uint8Array, pos: number, count: number, out: Uint32Array, outStart: number): number {
  const nFull = count >>> 7;
  let o = outStart;
  if (nFull > 0) {
    const codesAt = pos;
    pos += nFull;
    pos = (pos + 3) & ~3;
    let totalWords = 0;
    for (let b = 0; b < nFull; b++) {
      const c = bytes[codesAt + b]!;
      if ((c > 32 && c < SPLIT) || (c > SPLIT + MAX_SPLIT_K && c <= UNARY)) throw new FormatError(`block code ${c} out of range`);
      if (c >= SPLIT && c < UNARY) {
        // a split block's length is in its first word
        const at = pos + totalWords * 4;
        if (at + 4 > bytes.length) throw new FormatError('packed block past end of data');
        const unaryWords = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
        if (unaryWords < 4 || unaryWords > bytes.length) throw new FormatError('bad split block length');
        totalWords += 1 + 4 * (c - SPLIT) + unaryWords;
      } else {
        totalWords += c > UNARY ? c - UNARY : c * 4;
      }
    }
    if (pos + totalWords * 4 > bytes.length) throw new FormatError('packed block past end of data');
    const abs = bytes.byteOffset + pos;
    const words = (abs & 3) === 0
      ? new Uint32Array(bytes.buffer, abs, totalWords)
      : new Uint32Array(bytes.slice(pos, pos + totalWords * 4).buffer);
    let wi = 0;
    for (let b = 0; b < nFull; b++) {
      const code = bytes[codesAt + b]!;
      if (code >= SPLIT && code < UNARY) {
        wi = decodeSplitBlock(words, wi, code - SPLIT, out, o);
      } else if (code > UNARY) {
        const nWords = code - UNARY;
        let last = -1;
        let k = 0;
        for (let w = 0; w < nWords && k < BLOCK_LEN; w++) {
          let x = words[wi + w]! | 0;
          const base = w * 32;
          while (x !== 0 && k < BLOCK_LEN) {
            const bit = base + 31 - Math.clz32(x & -x);
            out[o + k++] = bit - last - 1;
            last = bit;
            x &= x - 1;
          }
        }
        if (k !== BLOCK_LEN) throw new FormatError('unary block holds too few values');
        wi += nWords;
      } else if (code === 0) {
        out.fill(0, o, o + BLOCK_LEN);
      } else if (code === 32) {
        out.set(words.subarray(wi, wi + BLOCK_LEN), o);
        wi += 128;
      } else {
        const width = code;
        unpackBlock(words, wi, width, out, o);
        wi += width * 4;
      }
      o += BLOCK_LEN;
    }
    pos += totalWords * 4;
  }
  const tail = count - nFull * BLOCK_LEN;
  if (tail === 0) return pos;
  if (pos >= bytes.length) throw new FormatError('stream tail past end of data');
  const width = bytes[pos++]!;
  if (width > 32) throw new FormatError(`tail width ${width} out of range`);
  const nBytes = Math.ceil((tail * width) / 8);
  if (pos + nBytes > bytes.length) throw new FormatError('stream tail past end of data');
  if (width === 0) {
    out.fill(0, o, o + tail);
    return pos;
  }
  const scale = 2 ** width;
  for (let i = 0, bit = 0; i < tail; i++, bit += width) {
    const first = pos + (bit >>> 3);
    const sh = bit & 7;
    const last = pos + ((bit + width - 1) >>> 3);
    // up to 5 bytes: gather them as a double (exact below 2^53), then cut the value out
    let v = 0;
    for (let k = last; k >= first; k--) v = v * 256 + bytes[k]!;
    out[o + i] = Math.floor(v / 2 ** sh) % scale;
  }
  return pos + nBytes;
}
