/**
 * Strings on disk: UTF-8, or UTF-16LE for the rare string holding a lone surrogate (which UTF-8
 * cannot carry), chosen per term block, per doc-store block or per name by an encoding byte.
 */

export const UTF8 = 0;
export const UTF16 = 1;
export type StringEncoding = typeof UTF8 | typeof UTF16;

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

const nativeIsWellFormed = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed;

/** False when the string holds a lone surrogate (natively where the runtime has it: much faster). */
export function isWellFormed(s: string): boolean {
  return nativeIsWellFormed !== undefined ? nativeIsWellFormed.call(s) : !LONE_SURROGATE.test(s);
}

export function encodingFor(s: string): StringEncoding {
  return isWellFormed(s) ? UTF8 : UTF16;
}

export function encodeString(s: string, enc: StringEncoding): Buffer {
  return Buffer.from(s, enc === UTF8 ? 'utf8' : 'utf16le');
}

export function decodeString(bytes: Uint8Array, start: number, end: number, enc: number): string {
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return b.toString(enc === UTF8 ? 'utf8' : 'utf16le', start, end);
}
