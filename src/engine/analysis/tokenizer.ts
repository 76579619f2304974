/**
 * The `_line` tokenizer: maximal runs of letters and digits, lowercased, in order.
 */

/** Tokens longer than this many UTF-16 code units are cut to this length. */
export const MAX_TOKEN_LENGTH = 255;

// ASCII classes: 0 separator, 1 lowercase letter or digit, 2 uppercase letter
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) ASCII_CLASS[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) ASCII_CLASS[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) ASCII_CLASS[c] = 2;

const WORD = /^[\p{L}\p{N}]$/u;
const MARK = /^\p{M}$/u;

// classes of non-ASCII BMP code units, filled on first sight: 0 unknown, 1 separator, 2 letter or
// digit, 3 combining mark (part of a run only when it follows a letter, digit or mark)
const BMP_CLASS = new Uint8Array(65536);
const SEPARATOR = 1;
const WORD_CHAR = 2;
const MARK_CHAR = 3;

function classifyCodePoint(cp: number): number {
  const ch = String.fromCodePoint(cp);
  if (WORD.test(ch)) return WORD_CHAR;
  if (MARK.test(ch)) return MARK_CHAR;
  return SEPARATOR;
}

function bmpClass(c: number): number {
  let k = BMP_CLASS[c]!;
  if (k === 0) {
    // lone surrogates never reach here: the caller pairs them first
    k = classifyCodePoint(c);
    BMP_CLASS[c] = k;
  }
  return k;
}

function finishToken(text: string, start: number, end: number, needsLower: boolean): string {
  let token = text.slice(start, end);
  if (needsLower) token = token.toLowerCase();
  if (token.length > MAX_TOKEN_LENGTH) {
    let cut = MAX_TOKEN_LENGTH;
    // keep a surrogate pair whole rather than leave half a character
    const last = token.charCodeAt(cut - 1);
    if (last >= 0xd800 && last <= 0xdbff) cut--;
    token = token.slice(0, cut);
  }
  return token;
}

/**
 * Splits text into lowercase word tokens; the array index of a token is its position.
 * Duplicates are kept so that phrase positions stay exact.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    // skip ASCII separators fast
    let c = text.charCodeAt(i);
    if (c < 128 && ASCII_CLASS[c] === 0) {
      i++;
      continue;
    }
    const start = i;
    let needsLower = false;
    let inRun = false;
    // scan one run; ASCII letters and digits take the tight path
    while (i < n) {
      c = text.charCodeAt(i);
      if (c < 128) {
        const a = ASCII_CLASS[c]!;
        if (a === 0) break;
        if (a === 2) needsLower = true;
        i++;
        inRun = true;
        continue;
      }
      let kind: number;
      let width = 1;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          width = 2;
          kind = classifyCodePoint(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
        } else kind = SEPARATOR;
      } else if (c >= 0xd800 && c <= 0xdfff) {
        kind = SEPARATOR;
      } else {
        kind = bmpClass(c);
      }
      if (kind === SEPARATOR || (kind === MARK_CHAR && !inRun)) break;
      needsLower = true;
      inRun = true;
      i += width;
    }
    if (i === start) {
      // a separator outside ASCII (or a mark with no run before it)
      const c0 = text.charCodeAt(i);
      i += c0 >= 0xd800 && c0 <= 0xdbff && i + 1 < n && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
      continue;
    }
    out.push(finishToken(text, start, i, needsLower));
  }
  return out;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
