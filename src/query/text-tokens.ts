/**
 * Counts the words a `_line` text analyzes into, for resolving `minimum_should_match` against
 * the number of query terms. The rule is the `_line` analyzer's: a token is a maximal run of
 * Unicode letters and digits, combining marks joining a run they follow.
 */
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

export function countTextTokens(text: string): number {
  let n = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.exec(text) !== null) n++;
  return n;
}

