/**
 * Numbers written as their JavaScript text (`String(n)`) straight into bytes: the write path
 * renders a number or two per document, and a string each would be garbage.
 */

/** Bytes `String(n)` takes (ASCII). */
export function decimalLength(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) return String(n).length;
  let digits = 1;
  for (let v = n; v >= 10; v = Math.floor(v / 10)) digits++;
  return digits;
}

/** Writes `String(n)` at `at`; returns where it ends. */
export function writeDecimal(buf: Uint8Array, at: number, n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) {
    const text = String(n);
    for (let i = 0; i < text.length; i++) buf[at++] = text.charCodeAt(i);
    return at;
  }
  const end = at + decimalLength(n);
  let i = end;
  let v = n;
  do {
    buf[--i] = 0x30 + (v % 10);
    v = Math.floor(v / 10);
  } while (v > 0);
  return end;
}
