/**
 * Splits a stored source into a *shape* and its values, for the column-wise doc store. A flat
 * JSON object (string, number, true/false/null members only) is cut at each member value: the
 * shape is the text with every value replaced by one slot marker (keys, quotes, commas, colons
 * and white space stay in it exactly), and the values are spans of the text. A string value's
 * span is its raw content between the quotes, escapes untouched, so putting the pieces back
 * together gives the text byte for byte without ever parsing or re-serializing JSON.
 *
 * Anything else (nested objects, arrays, texts that are not JSON) is not split: the caller stores
 * the text whole. So is a string value holding a raw line feed, which the doc store uses as the
 * separator of string values.
 */

/** Slot markers in a shape (control characters cannot occur raw in JSON keys or white space). */
export const SLOT_STRING = 1;
/** a canonical integer: `String(Number(text)) === text`, at most 15 digits */
export const SLOT_INT = 2;
/** any other number text (`1.0`, `1e3`, `-0`, huge integers) */
export const SLOT_NUMBER_TEXT = 3;
/** `true`, `false` or `null` */
export const SLOT_LITERAL = 4;
/**
 * Set by the doc store, not the scanner: a string or number value that is the text of the doc's
 * value in the keyword column (the term) or numeric column (`String(value)`) of the field the
 * key names, so that it need not be stored twice. `_ts` and `_lid` are numeric columns too.
 */
export const SLOT_KEYWORD_COLUMN = 5;
export const SLOT_NUMERIC_COLUMN = 6;
/** the whole text, stored as it is */
export const SLOT_RAW = 7;

const MARKERS = Array.from({ length: 8 }, (_, i) => String.fromCharCode(i));

export const LITERAL_TRUE = 0;
export const LITERAL_FALSE = 1;
export const LITERAL_NULL = 2;
export const LITERAL_TEXTS = ['true', 'false', 'null'] as const;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_INT_DIGITS = 15;

function isWhiteSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

/**
 * A reusable scanner: `scan` fills the public fields for one text. Slot arrays grow as needed;
 * nothing is allocated per value but the shape string.
 */
export class SourceScanner {
  slotCount = 0;
  slotKind = new Uint8Array(16);
  /** the member's key: raw text between the quotes */
  keyStart: Uint32Array = new Uint32Array(16);
  keyEnd: Uint32Array = new Uint32Array(16);
  /** the value: raw string content, number text or literal */
  valueStart: Uint32Array = new Uint32Array(16);
  valueEnd: Uint32Array = new Uint32Array(16);
  /** the integer of SLOT_INT, the literal code of SLOT_LITERAL */
  valueNumber = new Float64Array(16);

  private text = '';
  private pos = 0;

  /** the text last scanned */
  get source(): string {
    return this.text;
  }

  /** the first line feed at or after the last string checked, -1 when none */
  private nextLineFeed = -1;

  /** Splits `text`; false when it is not a flat object (store it whole). */
  scan(text: string): boolean {
    this.text = text;
    this.pos = 0;
    this.slotCount = 0;
    this.nextLineFeed = text.indexOf('\n');
    this.skipWhiteSpace();
    if (text.charCodeAt(this.pos) !== 0x7b /* { */) return false;
    this.pos++;
    this.skipWhiteSpace();
    if (text.charCodeAt(this.pos) === 0x7d /* } */) {
      this.pos++;
    } else {
      for (;;) {
        if (text.charCodeAt(this.pos) !== QUOTE) return false;
        const keyStart = this.pos + 1;
        const keyEnd = this.stringEnd(keyStart);
        if (keyEnd < 0 || !this.plainKey(keyStart, keyEnd)) return false;
        this.pos = keyEnd + 1;
        this.skipWhiteSpace();
        if (text.charCodeAt(this.pos) !== 0x3a /* : */) return false;
        this.pos++;
        this.skipWhiteSpace();
        const slot = this.slotCount;
        if (!this.value(slot, keyStart, keyEnd)) return false;
        this.slotCount++;
        this.skipWhiteSpace();
        const c = text.charCodeAt(this.pos);
        if (c === 0x2c /* , */) {
          this.pos++;
          this.skipWhiteSpace();
          continue;
        }
        if (c !== 0x7d /* } */) return false;
        this.pos++;
        break;
      }
    }
    this.skipWhiteSpace();
    return this.pos === text.length;
  }

  /** The text between the values: piece j precedes slot j, the last one follows the last slot. */
  piece(j: number): string {
    const from = j === 0 ? 0 : this.valueEnd[j - 1]!;
    return this.text.slice(from, j === this.slotCount ? this.text.length : this.valueStart[j]!);
  }

  /** The shape of the text last scanned: its pieces with each value replaced by its slot marker. */
  shape(): string {
    let shape = '';
    for (let j = 0; j < this.slotCount; j++) shape += this.piece(j) + MARKERS[this.slotKind[j]!]!;
    return shape + this.piece(this.slotCount);
  }

  /** A hash of the piece lengths and slot kinds of the text last scanned: alike shapes share it. */
  fingerprint(): number {
    const n = this.slotCount;
    let h = n;
    let from = 0;
    for (let j = 0; j < n; j++) {
      h = Math.imul(h ^ ((this.valueStart[j]! - from) * 8 + this.slotKind[j]!), 0x9e3779b1);
      from = this.valueEnd[j]!;
    }
    return Math.imul(h ^ (this.text.length - from), 0x85ebca6b) >>> 0;
  }

  /** True when the text last scanned has these pieces and slot kinds (no string is built). */
  hasShape(pieces: readonly string[], kinds: Uint8Array): boolean {
    const n = this.slotCount;
    if (kinds.length !== n) return false;
    const text = this.text;
    for (let j = 0; j <= n; j++) {
      if (j < n && kinds[j] !== this.slotKind[j]) return false;
      const from = j === 0 ? 0 : this.valueEnd[j - 1]!;
      const to = j === n ? text.length : this.valueStart[j]!;
      const piece = pieces[j]!;
      if (piece.length !== to - from || !text.startsWith(piece, from)) return false;
    }
    return true;
  }

  /** Reads the value at `pos` into slot `slot`; false when it is not a scalar. */
  private value(slot: number, keyStart: number, keyEnd: number): boolean {
    if (slot === this.slotKind.length) this.grow();
    const text = this.text;
    const start = this.pos;
    const c = text.charCodeAt(start);
    this.keyStart[slot] = keyStart;
    this.keyEnd[slot] = keyEnd;
    if (c === QUOTE) {
      const end = this.stringEnd(start + 1);
      if (end < 0) return false;
      this.slotKind[slot] = SLOT_STRING;
      this.valueStart[slot] = start + 1;
      this.valueEnd[slot] = end;
      this.pos = end + 1;
      return true;
    }
    if (isNumberChar(c)) return this.number(slot);
    const literal: number = c === 0x74 ? LITERAL_TRUE : c === 0x66 ? LITERAL_FALSE : c === 0x6e ? LITERAL_NULL : -1;
    if (literal < 0) return false;
    const word: string = LITERAL_TEXTS[literal]!;
    if (!text.startsWith(word, start)) return false;
    this.slotKind[slot] = SLOT_LITERAL;
    this.valueNumber[slot] = literal;
    this.valueStart[slot] = start;
    this.valueEnd[slot] = start + word.length;
    this.pos = start + word.length;
    return true;
  }

  private number(slot: number): boolean {
    const text = this.text;
    const start = this.pos;
    let end = start;
    while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
    this.valueStart[slot] = start;
    this.valueEnd[slot] = end;
    this.pos = end;
    const negative = text.charCodeAt(start) === 0x2d;
    const digitsFrom = negative ? start + 1 : start;
    const digits = end - digitsFrom;
    let canonical = digits > 0 && digits <= MAX_INT_DIGITS && !(digits > 1 && text.charCodeAt(digitsFrom) === 0x30);
    let v = 0;
    for (let i = digitsFrom; canonical && i < end; i++) {
      const d = text.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) canonical = false;
      v = v * 10 + d;
    }
    // "-0" is not what String(-0) gives
    if (canonical && negative && v === 0) canonical = false;
    if (canonical) v = negative ? -v : v;
    this.slotKind[slot] = canonical ? SLOT_INT : SLOT_NUMBER_TEXT;
    this.valueNumber[slot] = v;
    return true;
  }

  /** False when a key holds a raw control character, which would read as a slot marker. */
  private plainKey(start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (this.text.charCodeAt(i) < 0x20) return false;
    return true;
  }

  /**
   * The index of the quote closing the string whose content starts at `from`, or -1 when the
   * text ends first or the content holds a raw line feed.
   */
  private stringEnd(from: number): number {
    const text = this.text;
    let q = text.indexOf('"', from);
    for (;;) {
      if (q < 0) return -1;
      let backslashes = 0;
      while (q - 1 - backslashes >= from && text.charCodeAt(q - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) break;
      q = text.indexOf('"', q + 1);
    }
    if (this.nextLineFeed >= 0 && this.nextLineFeed < from) this.nextLineFeed = text.indexOf('\n', from);
    if (this.nextLineFeed >= 0 && this.nextLineFeed < q) return -1;
    return q;
  }

  private skipWhiteSpace(): void {
    const text = this.text;
    let p = this.pos;
    while (p < text.length && isWhiteSpace(text.charCodeAt(p))) p++;
    this.pos = p;
  }

  private grow(): void {
    const n = this.slotKind.length * 2;
    const kinds = new Uint8Array(n);
    kinds.set(this.slotKind);
    this.slotKind = kinds;
    this.keyStart = grown(this.keyStart, n);
    this.keyEnd = grown(this.keyEnd, n);
    this.valueStart = grown(this.valueStart, n);
    this.valueEnd = grown(this.valueEnd, n);
    const numbers = new Float64Array(n);
    numbers.set(this.valueNumber);
    this.valueNumber = numbers;
  }
}

function grown(a: Uint32Array, n: number): Uint32Array {
  const b = new Uint32Array(n);
  b.set(a);
  return b;
}
