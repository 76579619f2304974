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

/** The k that makes the block of values[start, end) shortest, and its length in bits. */
function bestK(values: Uint32Array, start: number, end: number): { k: number; bits: number } {
  let sum = 0;
  for (let i = start; i < end; i++) sum += values[i]!;
  const n = end - start;
  // for geometric values the best k is near log2 of the mean times ln 2: check it and both sides
  const guess = sum < 2 * n ? 0 : Math.min(MAX_K - 1, Math.floor(Math.log2((sum / n) * Math.LN2)));
  const k0 = Math.max(0, guess - 1);
  let q0 = 0;
  let q1 = 0;
  let q2 = 0;
  for (let i = start; i < end; i++) {
    const v = values[i]!;
    q0 += v >>> k0;
    q1 += v >>> (k0 + 1);
    q2 += v >>> (k0 + 2);
  }
  const b0 = q0 + n * (1 + k0);
  const b1 = q1 + n * (2 + k0);
  const b2 = k0 + 2 <= MAX_K ? q2 + n * (3 + k0) : Infinity;
  if (b0 <= b1 && b0 <= b2) return { k: k0, bits: b0 };
  return b1 <= b2 ? { k: k0 + 1, bits: b1 } : { k: k0 + 2, bits: b2 };
}

/** Size in bytes of values[start, start + count) as a Rice stream. */
export function riceStreamBytes(values: Uint32Array, start: number, count: number): number {
  let bytes = 0;
  for (let b = start; b < start + count; b += BLOCK_LEN) {
    bytes += 1 + Math.ceil(bestK(values, b, Math.min(start + count, b + BLOCK_LEN)).bits / 8);
  }
  return bytes;
}

/** Appends values[start, start + count) as a Rice stream. */
export function encodeRiceStream(out: ByteWriter, values: Uint32Array, start: number, count: number): void {
  for (let b = start; b < start + count; b += BLOCK_LEN) {
    const end = Math.min(start + count, b + BLOCK_LEN);
    const { k, bits } = bestK(values, b, end);
    out.u8(k);
    const nBytes = Math.ceil(bits / 8);
    // 4 bytes of slack: the low bits are ORed in as one 32-bit word
    out.ensure(nBytes + 4);
    const at = out.reserve(nBytes);
    const bytes = out.raw();
    bytes.fill(0, at, at + nBytes + 4);
    const mask = 2 ** k - 1;
    let bit = 0;
    for (let i = b; i < end; i++) {
      const v = values[i]!;
      bit += v >>> k;
      bytes[at + (bit >>> 3)]! |= 1 << (bit & 7);
      bit++;
      if (k === 0) continue;
      const rest = v & mask;
      const sh = bit & 7;
      let p = at + (bit >>> 3);
      if (k <= 24) {
        const x = rest << sh;
        bytes[p]! |= x & 0xff;
        bytes[p + 1]! |= (x >>> 8) & 0xff;
        bytes[p + 2]! |= (x >>> 16) & 0xff;
        bytes[p + 3]! |= x >>> 24;
      } else {
        // rest * 2^sh can reach 2^38: spread it byte by byte
        let x = rest * 2 ** sh;
        for (; x > 0; p++, x = Math.floor(x / 256)) bytes[p]! |= x % 256;
      }
      bit += k;
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
      const word0 = pos + (bit >>> 3);
      if (word0 + 3 < end) {
        // the common case: the whole code within the next 4 bytes, read as one word
        const sh = bit & 7;
        const word = ((bytes[word0]! | (bytes[word0 + 1]! << 8) | (bytes[word0 + 2]! << 16) | (bytes[word0 + 3]! << 24)) >>> sh) >>> 0;
        if (word !== 0) {
          const zeros = 31 - Math.clz32(word & -word);
          if (zeros + 1 + k <= 32 - sh) {
            const r = k === 0 ? 0 : (word >>> (zeros + 1)) & (low - 1);
            out[o++] = zeros * low + r;
            bit += zeros + 1 + k;
            continue;
          }
        }
      }
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
      const at = pos + (bit >>> 3);
      if (k <= 24 && at + 3 < end) {
        // the k low bits lie within 4 bytes: one little-endian word, shifted and masked
        const word = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
        r = (word >>> (bit & 7)) & (low - 1);
        bit += k;
      } else {
        for (let j = 0; j < k; ) {
          if (bit >= limit) throw new FormatError('rice code past end of data');
          const sh = bit & 7;
          const take = Math.min(8 - sh, k - j);
          r += ((bytes[pos + (bit >>> 3)]! >>> sh) & ((1 << take) - 1)) * 2 ** j;
          j += take;
          bit += take;
        }
      }
      if (bit > limit) throw new FormatError('rice code past end of data');
      const v = q * low + r;
      if (v > 0xffffffff) throw new FormatError('rice value out of range');
      out[o++] = v;
    }
    pos += (bit + 7) >>> 3;
  }
  return pos;
}
