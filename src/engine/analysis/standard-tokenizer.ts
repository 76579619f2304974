/**
 * The tokenizer of Elasticsearch's `standard` analyzer: Unicode word boundaries (UAX #29) as
 * Lucene's StandardTokenizer applies them, then lowercasing. See the folder's index.ts for where
 * it differs from Lucene.
 */
import type { TokenSpan } from './token-spans.js';

/** Longer words are split into pieces of at most this many UTF-16 code units, as Lucene does. */
export const STANDARD_MAX_TOKEN_LENGTH = 255;

// word-break classes (UAX #29 Word_Break values, plus the kinds Lucene makes tokens of)
const UNKNOWN = 0;
const OTHER = 1;
const ALETTER = 2;
const HEBREW = 3;
const NUMERIC = 4;
const KATAKANA = 5;
const EXTEND_NUM_LET = 6;
const MID_LETTER = 7;
const MID_NUM = 8;
const MID_NUM_LET = 9;
const SINGLE_QUOTE = 10;
const DOUBLE_QUOTE = 11;
/** Extend, Format and ZWJ: they stay with the character before them (WB4) */
const IGNORABLE = 12;
/** Han ideographs and Hiragana: each character is a token */
const SINGLE = 13;
/** South East Asian scripts written without spaces: a run is one token */
const SOUTH_EAST_ASIAN = 14;
const REGIONAL = 15;
/** pictographs shown as emoji by default */
const EMOJI = 16;
/** pictographs shown as text unless a variation selector or modifier follows */
const EMOJI_TEXT = 17;

const ZWJ = 0x200d;
const VS16 = 0xfe0f;

const IS_EXTEND = /^[\p{M}\p{Emoji_Modifier}\u200c\u200d\uff9e\uff9f]$/u;
const IS_FORMAT = /^\p{Cf}$/u;
const IS_HAN = /^[\p{Script=Han}\u3005\u3007\u3021-\u3029\u3038-\u303b]$/u;
const IS_HIRAGANA = /^\p{Script=Hiragana}$/u;
const IS_KATAKANA = /^[\p{Script=Katakana}\u3031-\u3035\u309b\u309c\u30a0\u30fc\uff70]$/u;
const IS_SOUTH_EAST_ASIAN =
  /^[\p{Script=Thai}\p{Script=Lao}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Tai_Le}\p{Script=New_Tai_Lue}\p{Script=Tai_Tham}\p{Script=Tai_Viet}\p{Script=Ahom}]$/u;
const IS_HEBREW_LETTER = /^(?=\p{Script=Hebrew})\p{Lo}$/u;
const IS_ALETTER = /^[\p{Alphabetic}\u02c2-\u02c5\u02d2-\u02d7\u02de\u02df\u02ed\u02ef-\u02ff\u05f3\ua720\ua721\ua789\ua78a\uab5b]$/u;
const IS_NUMERIC = /^\p{Nd}$/u;
const IS_EXTEND_NUM_LET = /^[\p{Pc}\u202f]$/u;
const IS_REGIONAL = /^\p{Regional_Indicator}$/u;
const IS_EMOJI = /^(?=\p{Extended_Pictographic})\p{Emoji_Presentation}$/u;
const IS_EMOJI_TEXT = /^\p{Extended_Pictographic}$/u;

const MID_LETTERS = [0x3a, 0xb7, 0x387, 0x55f, 0x5f4, 0x2027, 0xfe13, 0xfe55, 0xff1a];
const MID_NUMS = [0x2c, 0x3b, 0x37e, 0x589, 0x60c, 0x60d, 0x66c, 0x7f8, 0x2044, 0xfe10, 0xfe14, 0xfe50, 0xfe54, 0xff0c, 0xff1b];
const MID_NUM_LETS = [0x2e, 0x2018, 0x2019, 0x2024, 0xfe52, 0xff07, 0xff0e];

function classify(cp: number): number {
  if (cp === 0x27) return SINGLE_QUOTE;
  if (cp === 0x22) return DOUBLE_QUOTE;
  if (MID_LETTERS.includes(cp)) return MID_LETTER;
  if (MID_NUMS.includes(cp)) return MID_NUM;
  if (MID_NUM_LETS.includes(cp)) return MID_NUM_LET;
  // zero width space and joiners are Format characters that do not join words
  if (cp === 0x200b) return OTHER;
  const ch = String.fromCodePoint(cp);
  if (IS_EXTEND.test(ch) || IS_FORMAT.test(ch)) return IGNORABLE;
  if (IS_REGIONAL.test(ch)) return REGIONAL;
  if (IS_EMOJI.test(ch)) return EMOJI;
  if (IS_EMOJI_TEXT.test(ch)) return EMOJI_TEXT;
  if (IS_KATAKANA.test(ch)) return KATAKANA;
  if (IS_HAN.test(ch) || IS_HIRAGANA.test(ch)) return SINGLE;
  if (IS_SOUTH_EAST_ASIAN.test(ch)) return /^[\p{L}\p{N}]$/u.test(ch) ? SOUTH_EAST_ASIAN : OTHER;
  if (IS_NUMERIC.test(ch)) return NUMERIC;
  if (IS_HEBREW_LETTER.test(ch)) return HEBREW;
  if (IS_ALETTER.test(ch)) return ALETTER;
  if (IS_EXTEND_NUM_LET.test(ch)) return EXTEND_NUM_LET;
  return OTHER;
}

// classes of BMP code points, filled on first sight; astral ones are classified each time
const BMP = new Uint8Array(65536);
for (let c = 0; c < 128; c++) BMP[c] = classify(c);

/** Lowercase forms of BMP code points beyond ASCII, filled on first sight (0: not yet known). */
const LOWER = new Uint32Array(65536);

/**
 * One code point lowercased as Java's `Character.toLowerCase` does (Lucene's LowerCaseFilter):
 * without context, so `Σ` is always `σ` and `İ` is `i`.
 */
function lowerCodePoint(cp: number): number {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
  if (cp < 0x10000) {
    let l = LOWER[cp]!;
    if (l === 0) {
      l = String.fromCharCode(cp).toLowerCase().codePointAt(0)!;
      LOWER[cp] = l;
    }
    return l;
  }
  return String.fromCodePoint(cp).toLowerCase().codePointAt(0)!;
}

function lowercase(text: string, start: number, end: number): string {
  let plain = true;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || (c >= 0x41 && c <= 0x5a)) {
      plain = false;
      break;
    }
  }
  if (plain) return text.slice(start, end);
  let out = '';
  for (let i = start; i < end; ) {
    const cp = text.codePointAt(i)!;
    out += String.fromCodePoint(lowerCodePoint(cp));
    i += cp > 0xffff ? 2 : 1;
  }
  return out;
}

/** Walks the words of a text, calling `emit(start, end)` with UTF-16 offsets, in order. */
class WordScanner {
  private text = '';
  private n = 0;
  /** the class and width of the code point at the last `at` call */
  private cls = OTHER;
  private width = 1;

  scan(text: string, emit: (start: number, end: number) => void): void {
    this.text = text;
    this.n = text.length;
    let i = 0;
    while (i < this.n) {
      const k = this.at(i);
      const end = this.tokenEnd(i, k);
      if (end > i) {
        emitPieces(text, i, end, emit);
        i = end;
      } else {
        i += this.width;
      }
    }
  }

  /** Class of the code point at `i`; sets `width`. A lone surrogate is OTHER. */
  private at(i: number): number {
    const c = this.text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) {
      this.width = 1;
      let k = BMP[c]!;
      if (k === UNKNOWN) {
        k = classify(c);
        BMP[c] = k;
      }
      this.cls = k;
      return k;
    }
    const d = i + 1 < this.n ? this.text.charCodeAt(i + 1) : 0;
    if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
      this.width = 2;
      this.cls = classify(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
      return this.cls;
    }
    this.width = 1;
    this.cls = OTHER;
    return OTHER;
  }

  /** Index past the code point at `i` and the Extend, Format and ZWJ characters after it (WB4). */
  private pastIgnorables(i: number): number {
    this.at(i);
    i += this.width;
    while (i < this.n && this.at(i) === IGNORABLE) i += this.width;
    return i;
  }

  /** End of the token starting at `i` (class `k`), or `i` when no token starts there. */
  private tokenEnd(i: number, k: number): number {
    switch (k) {
      case ALETTER:
      case HEBREW:
      case NUMERIC:
      case KATAKANA:
      case EXTEND_NUM_LET:
        return this.wordEnd(i, k);
      case SINGLE:
        return this.pastIgnorables(i);
      case SOUTH_EAST_ASIAN: {
        let end = this.pastIgnorables(i);
        while (end < this.n && this.at(end) === SOUTH_EAST_ASIAN) end = this.pastIgnorables(end);
        return end;
      }
      case REGIONAL: {
        const end = this.pastIgnorables(i);
        return end < this.n && this.at(end) === REGIONAL ? this.pastIgnorables(end) : end;
      }
      case EMOJI:
      case EMOJI_TEXT:
        return this.emojiEnd(i, k);
      default:
        return i;
    }
  }

  /** A word: letters, digits, katakana and connectors joined by the rules WB5 to WB13b. */
  private wordEnd(i: number, first: number): number {
    let last = first;
    let end = this.pastIgnorables(i);
    for (;;) {
      if (end >= this.n) return end;
      const k = this.at(end);
      const isLetter = last === ALETTER || last === HEBREW;
      if (k === ALETTER || k === HEBREW || k === NUMERIC) {
        if (!(isLetter || last === NUMERIC || last === EXTEND_NUM_LET)) return end;
      } else if (k === KATAKANA) {
        if (last !== KATAKANA && last !== EXTEND_NUM_LET) return end;
      } else if (k === EXTEND_NUM_LET) {
        // every class a word holds may be followed by a connector (WB13a)
      } else if (k >= MID_LETTER && k <= DOUBLE_QUOTE) {
        const afterMid = this.pastIgnorables(end);
        const next = afterMid < this.n ? this.at(afterMid) : OTHER;
        const letterMid = k === MID_LETTER || k === MID_NUM_LET || k === SINGLE_QUOTE;
        const numberMid = k === MID_NUM || k === MID_NUM_LET || k === SINGLE_QUOTE;
        if (isLetter && letterMid && (next === ALETTER || next === HEBREW)) {
          last = next;
        } else if (last === HEBREW && k === DOUBLE_QUOTE && next === HEBREW) {
          last = next;
        } else if (last === NUMERIC && numberMid && next === NUMERIC) {
          last = next;
        } else if (last === HEBREW && k === SINGLE_QUOTE) {
          // WB7a: a Hebrew letter keeps a quote after it, and the word ends there
          return afterMid;
        } else {
          return end;
        }
        end = this.pastIgnorables(afterMid);
        continue;
      } else {
        return end;
      }
      last = k;
      end = this.pastIgnorables(end);
    }
  }

  /** An emoji, its modifiers and what ZWJ joins to it; a text-style pictograph only with VS16 or a modifier. */
  private emojiEnd(i: number, k: number): number {
    this.at(i);
    const afterBase = i + this.width;
    if (k === EMOJI_TEXT) {
      if (afterBase >= this.n) return i;
      const next = this.text.codePointAt(afterBase)!;
      if (next !== VS16 && !(next >= 0x1f3fb && next <= 0x1f3ff)) return i;
    }
    let end = i;
    for (;;) {
      end = this.pastIgnorables(end);
      // WB3c: a joiner binds the next pictograph
      if (end >= this.n || this.text.charCodeAt(end - 1) !== ZWJ) return end;
      const next = this.at(end);
      if (next !== EMOJI && next !== EMOJI_TEXT) return end;
    }
  }
}

/** Emits [start, end) in pieces of at most STANDARD_MAX_TOKEN_LENGTH units, never splitting a surrogate pair. */
function emitPieces(text: string, start: number, end: number, emit: (start: number, end: number) => void): void {
  while (end - start > STANDARD_MAX_TOKEN_LENGTH) {
    let cut = start + STANDARD_MAX_TOKEN_LENGTH;
    const last = text.charCodeAt(cut - 1);
    if (last >= 0xd800 && last <= 0xdbff) cut--;
    emit(start, cut);
    start = cut;
  }
  emit(start, end);
}

const scanner = new WordScanner();

/** The standard analyzer's tokens of a text, lowercased, in order (the index is the position). */
export function standardTokens(text: string): string[] {
  const out: string[] = [];
  scanner.scan(text, (start, end) => out.push(lowercase(text, start, end)));
  return out;
}

/** The standard analyzer's tokens with their UTF-16 offsets in the text (highlighting). */
export function standardSpans(text: string): TokenSpan[] {
  const out: TokenSpan[] = [];
  scanner.scan(text, (start, end) => out.push({ token: lowercase(text, start, end), start, end }));
  return out;
}
