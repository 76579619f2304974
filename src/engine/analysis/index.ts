/**
 * Text analysis for `text` fields (`_line`). The rule: a token is a maximal run of Unicode
 * letters and digits (`\p{L}`, `\p{N}`), with combining marks (`\p{M}`) kept when they follow a
 * letter, digit or mark of the run; everything else separates tokens. Each token is lowercased with
 * `String.prototype.toLowerCase()` and cut to 255 UTF-16 code units (a surrogate pair is never split,
 * so a cut token may be 254 units). Tokens keep their order and duplicates: the index of a token in
 * the result is its position, used by phrase queries. Queries analyze their text with the same rule.
 */
export { tokenize, MAX_TOKEN_LENGTH } from './tokenizer.js';
export { tokenSpans, type TokenSpan } from './token-spans.js';
