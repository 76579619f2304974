/**
 * The `_line` tokens of a text with where each one sits in it, for highlighting: the same rule
 * as `tokenize` (a run starts with a letter or digit and goes on over letters, digits and
 * combining marks; lowercased, cut to MAX_TOKEN_LENGTH), so that the tokens found here are the
 * terms the index holds, and `start`/`end` are UTF-16 offsets into the original text.
 */
import { MAX_TOKEN_LENGTH } from './tokenizer.js';

export interface TokenSpan {
  /** the indexed term */
  token: string;
  start: number;
  end: number;
}

const RUN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

export function tokenSpans(text: string): TokenSpan[] {
  const out: TokenSpan[] = [];
  RUN.lastIndex = 0;
  for (let m = RUN.exec(text); m !== null; m = RUN.exec(text)) {
    let token = m[0].toLowerCase();
    if (token.length > MAX_TOKEN_LENGTH) {
      let cut = MAX_TOKEN_LENGTH;
      const last = token.charCodeAt(cut - 1);
      if (last >= 0xd800 && last <= 0xdbff) cut--;
      token = token.slice(0, cut);
    }
    out.push({ token, start: m.index, end: m.index + m[0].length });
  }
  return out;
}
