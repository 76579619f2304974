/**
 * The `_line` tokenizer rule for the ASCII text this corpus holds: maximal runs of letters and
 * digits, lowercased (the service's documented rule, restricted to ASCII).
 */

/** Calls onToken for each token of an ASCII line, in order. */
export function forEachAsciiToken(line: string, onToken: (token: string) => void): void {
  const n = line.length;
  let start = -1;
  let upper = false;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? line.charCodeAt(i) : 0;
    const lowerOrDigit = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
    const isUpper = c >= 0x41 && c <= 0x5a;
    if (lowerOrDigit || isUpper) {
      if (start < 0) {
        start = i;
        upper = false;
      }
      if (isUpper) upper = true;
    } else if (start >= 0) {
      const token = line.slice(start, i);
      onToken(upper ? token.toLowerCase() : token);
      start = -1;
    }
  }
}
