/**
 * The Rice stream, an alternative to the packed u32 stream for doc-id gaps of mid-frequency
 * terms, whose gaps are roughly geometric: bit packing pays for the widest gap of each block of
 * 128, Rice codes come within a few percent of the entropy. Layout, for `count` values:
 *
 *   per block of 128 values (the last one shorter): u8 k (0..31) · the block's values as Rice
 *   codes in a bit string, bit b at bit b % 8 of byte b / 8: the quotient v >>> k in unary (that
 *   many 0 bits, then a 1 bit), then the k low bits of v, lowest first; zero bits to a byte
 *   boundary.
 *
 * Decoding goes bit by bit through the unary parts, so it is slower than unpacking: writers use
 * it only where it saves a good share of the bytes.
 */
import type { ByteWriter } from './byte-writer.js';
import { FormatError } from './byte-reader.js';

const BLOCK_LEN = 128;
const MAX_K = 31;

/** Bytes of the Rice block of values[start, end) with parameter k. */
function blockBits(values: Uint32Array, start: number, end: number, k: number): number {
  let bits = 0;
  for (let i = start; i < end; i++) bits += Math.floor(values[i]! / 2 ** k) + 1 + k;
  return bits;
}

/** The k that makes the block shortest: near log2 of the mean value, checked on both sides. */
function bestK(values: Uint32Array, start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += values[i]!;
  const mean = sum / (end - start);
  const guess = mean < 2 ? 0 : Math.min(MAX_K, Math.floor(Math.log2(mean * Math.LN2)));
  let best = guess;
  let bestBits = blockBits(values, start, end, guess);
  for (const k of [guess - 1, guess + 1]) {
    if (k < 0 || k > MAX_K) continue;
    const bits = blockBits(values, start, end, k);
    if (bits < bestBits) {
      best = k;
      bestBits = bits;
    }
  }
  return best;
}

/** Size in bytes of values[start, start + count) as a Rice stream. */
export function riceStreamBytes(values: Uint32Array, start: number, count: number): number {
  let bytes = 0;
  for (let b = start; b < start + count; b += BLOCK_LEN) {
    const end = Math.min(start + count, b + BLOCK_LEN);
    bytes += 1 + Math.ceil(blockBits(values, b, end, bestK(values, b, end)) / 8);
  }
  return bytes;
}

/** Appends values[start, start + count) as a Rice stream. */
export function encodeRiceStream(out: ByteWriter, values: Uint32Array, start: number, count: number): void {
  for (let b = start; b < start + count; b += BLOCK_LEN) {
    const end = Math.min(start + count, b + BLOCK_LEN);
    const k = bestK(values, b, end);
    out.u8(k);
    const nBytes = Math.ceil(blockBits(values, b, end, k) / 8);
    const at = out.reserve(nBytes);
    const bytes = out.raw();
    bytes.fill(0, at, at + nBytes);
    let bit = 0;
    const low = 2 ** k;
    for (let i = b; i < end; i++) {
      const v = values[i]!;
      bit += Math.floor(v / low);
      bytes[at + (bit >>> 3)]! |= 1 << (bit & 7);
      bit++;
      let rest = v % low;
      for (let j = 0; j < k; j++, bit++) {
        if (rest & 1) bytes[at + (bit >>> 3)]! |= 1 << (bit & 7);
        rest = Math.floor(rest / 2);
      }
    }
  }
}

/**
 * Decodes `count` values of a Rice stream at bytes[pos, end) into out[outStart...]; returns the
 * position after the stream.
 */
export function decodeRiceStream(bytes: Uint8Array, pos: number, end: number, count: number, out: Uint32Array, outStart: number): number {
  let o = outStart;
  for (let left = count; left > 0; left -= BLOCK_LEN) {
    const n = Math.min(left, BLOCK_LEN);
    if (pos >= end) throw new FormatError('rice block past end of data');
    const k = bytes[pos++]!;
    if (k > MAX_K) throw new FormatError(`rice parameter ${k} out of range`);
    const low = 2 ** k;
    let bit = 0;
    const limit = (end - pos) * 8;
    for (let i = 0; i < n; i++) {
      // unary quotient: skip zero bits, a byte at a time where possible
      let q = 0;
      for (;;) {
        if (bit >= limit) throw new FormatError('rice code past end of data');
        const cur = bytes[pos + (bit >>> 3)]! >>> (bit & 7);
        if (cur === 0) {
          const skip = 8 - (bit & 7);
          q += skip;
          bit += skip;
          continue;
        }
        const zeros = 31 - Math.clz32(cur & -cur);
        q += zeros;
        bit += zeros + 1;
        break;
      }
      let r = 0;
      for (let j = 0; j < k; ) {
        if (bit >= limit) throw new FormatError('rice code past end of data');
        const sh = bit & 7;
        const take = Math.min(8 - sh, k - j);
        r += ((bytes[pos + (bit >>> 3)]! >>> sh) & ((1 << take) - 1)) * 2 ** j;
        j += take;
        bit += take;
      }
      const v = q * low + r;
      if (v > 0xffffffff) throw new FormatError('rice value out of range');
      out[o++] = v;
    }
    pos += (bit + 7) >>> 3;
  }
  return pos;
}
