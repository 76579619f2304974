/**
 * Text analysis. Two analyzers, chosen by field name (`analyzerFor`):
 *
 * - `_line`: a token is a maximal run of Unicode letters and digits (`\p{L}`, `\p{N}`), with
 *   combining marks (`\p{M}`) kept when they follow a letter, digit or mark of the run; everything
 *   else separates tokens. Each token is lowercased with `String.prototype.toLowerCase()` and cut
 *   to 255 UTF-16 code units (a surrogate pair is never split, so a cut token may be 254 units).
 * - every other `text` field: Elasticsearch's `standard` analyzer, the word boundaries of
 *   Unicode's UAX #29 as Lucene's StandardTokenizer applies them, then lowercasing, no stop words.
 *   Words are runs of letters, digits, katakana and connectors (`_`) that UAX #29 keeps together,
 *   so `dog's`, `example.com`, `3.14`, `1,000`, `foo_bar`, `v1.2` and `a:b` are one token each
 *   while `-`, `/`, `@`, `=` and white space separate. Each Han ideograph and each hiragana
 *   character is a token; a run of Thai, Lao, Khmer or Myanmar letters is one token; emoji are
 *   tokens. Words longer than 255 UTF-16 code units are split into pieces of 255, as Lucene does.
 *   Lowercasing is per code point, as Java's `Character.toLowerCase` (`Σ` → `σ`, `İ` → `i`).
 *   Differences from Lucene: the Word_Break classes are derived from the Unicode properties
 *   JavaScript's regular expressions know (General_Category, Script, Alphabetic, the emoji
 *   properties) rather than from the Word_Break table, so a few rare characters fall in another
 *   class; Lucene's URL and e-mail rules belong to another tokenizer and are not applied either;
 *   text-style pictographs (`©`, `☺`) are tokens only when a variation selector or a skin-tone
 *   modifier follows them.
 *
 * Tokens keep their order and duplicates: the index of a token in the result is its position,
 * used by phrase queries. Queries analyze their text with the analyzer of the field they search.
 */
export { tokenize, MAX_TOKEN_LENGTH } from './tokenizer.js';
export { tokenSpans, type TokenSpan } from './token-spans.js';
export { standardTokens, standardSpans, STANDARD_MAX_TOKEN_LENGTH } from './standard-tokenizer.js';
export { analyzerFor, LINE_ANALYZER, LINE_FIELD, STANDARD_ANALYZER, type Analyzer } from './analyzer.js';
