/**
 * Terms as dictionary keys: UTF-8 bytes for well-formed strings, and for a string with a lone
 * surrogate (which UTF-8 cannot carry) the byte 0xFF followed by its UTF-16LE code units. 0xFF
 * never occurs in UTF-8, so the two forms never collide and every string has exactly one key.
 */

import { isWellFormed } from '../segment/strings.js';

const UTF16_MARK = 0xff;

/** A reusable buffer for one term's key. */
export class TermScratch {
  buf: Buffer = Buffer.allocUnsafe(1024);

  /** Writes the key of `term` at the start of `buf` and returns its length. */
  encode(term: string): number {
    const n = term.length;
    if (n * 3 + 1 > this.buf.length) this.buf = Buffer.allocUnsafe(n * 3 + 1);
    const buf = this.buf;
    // ASCII, the common case, without a call into the encoder
    let i = 0;
    for (; i < n; i++) {
      const c = term.charCodeAt(i);
      if (c >= 0x80) break;
      buf[i] = c;
    }
    if (i === n) return n;
    if (isWellFormed(term)) return buf.write(term, 0, 'utf8');
    if (n * 2 + 1 > buf.length) this.buf = Buffer.allocUnsafe(n * 2 + 1);
    this.buf[0] = UTF16_MARK;
    return 1 + this.buf.write(term, 1, 'utf16le');
  }
}

/** The string a key stands for. */
export function decodeTerm(bytes: Uint8Array): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length > 0 && buf[0] === UTF16_MARK) return buf.toString('utf16le', 1);
  return buf.toString('utf8');
}
