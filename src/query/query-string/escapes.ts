/**
 * Backslash escapes in query-string terms. `\x` stands for the character x (so `\:`, `\*`,
 * `\ ` are literal) and `\uXXXX` for a UTF-16 code unit, as in Lucene's `discardEscapeChar`.
 */

const HEX4 = /^[0-9a-fA-F]{4}$/;

/** The literal text: escapes resolved. */
export function unescapeTerm(image: string): string {
  if (!image.includes('\\')) return image;
  let out = '';
  for (let i = 0; i < image.length; i++) {
    const c = image[i]!;
    if (c !== '\\' || i + 1 >= image.length) {
      out += c;
      continue;
    }
    const unicode = readUnicodeEscape(image, i);
    if (unicode !== undefined) {
      out += unicode;
      i += 5;
    } else {
      out += image[++i];
    }
  }
  return out;
}

/**
 * A wildcard pattern in the AST's form: `*` and `?` are wildcards, `\*`, `\?` and `\\` stay
 * escaped (literal), every other escape is resolved.
 */
export function wildcardPattern(image: string): string {
  let out = '';
  for (let i = 0; i < image.length; i++) {
    const c = image[i]!;
    if (c !== '\\' || i + 1 >= image.length) {
      out += c;
      continue;
    }
    const unicode = readUnicodeEscape(image, i);
    if (unicode !== undefined) {
      out += unicode === '*' || unicode === '?' || unicode === '\\' ? '\\' + unicode : unicode;
      i += 5;
      continue;
    }
    const next = image[++i]!;
    out += next === '*' || next === '?' || next === '\\' ? '\\' + next : next;
  }
  return out;
}

function readUnicodeEscape(image: string, backslash: number): string | undefined {
  if (image[backslash + 1] !== 'u') return undefined;
  const hex = image.slice(backslash + 2, backslash + 6);
  if (!HEX4.test(hex)) return undefined;
  return String.fromCharCode(parseInt(hex, 16));
}
