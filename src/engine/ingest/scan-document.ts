/**
 * The fast path of a write: one pass over a document's JSON bytes that checks it and records
 * where each value is, without `JSON.parse`. It accepts only the common log shape — one flat
 * object whose values are ASCII strings, numbers, booleans or null, each key a field the index
 * already maps and each value fitting that field's type without coercion — and says "general"
 * for anything else (nested objects, arrays, new fields, escapes it does not decode, non-ASCII
 * text, invalid JSON), which then takes the general path (`JSON.parse` + `buildDocument`) with
 * its exact errors and coercions. Both paths index a document the same way.
 */
import { parseDateValue } from '../../common/date-math.js';
import type { FieldSlots } from './field-slots.js';
import { SLOT_GENERAL, SLOT_LID, SLOT_TS } from './field-slots.js';
import type { ScannedValueList } from './scanned-value-list.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const COLON = 0x3a;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** Escapes that decode to a separator (never to a letter or digit): `\" \\ \/ \b \f \n \r \t`. */
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;

/** Integers with up to this many digits are exact as doubles. */
const MAX_EXACT_DIGITS = 15;

/** What the scan found besides the values: read by the caller after a successful scan. */
export interface ScannedDocument {
  /** `_ts` as given (epoch ms), or NaN when the document has none */
  ts: number;
  /** end of the text the stored source keeps: just after the last byte before the closing brace */
  keepEnd: number;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

export class DocumentScanner {
  /** per slot: serial of the last document that held it (duplicate keys go the general path) */
  private seenIn = new Int32Array(64);
  private serial = 0;
  private numValue = 0;
  private numIsInteger = false;
  private strHasEscape = false;

  constructor(
    private readonly slots: FieldSlots,
    /**
     * Replaying stored sources: they end with the `_lid` the service appended, which the scan
     * then passes over (the WAL record carries it), and, for a client-supplied `_id`, with its
     * `_id` and `_version`, passed over too; a sent document's `_lid` is the general path's.
     */
    private readonly storedSources = false,
  ) {}

  /**
   * Scans bytes [start, end) (one NDJSON line); on success appends its values to `out` and
   * fills `doc`, else leaves `out` as it was and returns false.
   */
  scan(bytes: Uint8Array, start: number, end: number, out: ScannedValueList, doc: ScannedDocument): boolean {
    const mark = out.length;
    if (this.scanObject(bytes, start, end, out, doc)) return true;
    out.length = mark;
    return false;
  }

  private scanObject(bytes: Uint8Array, start: number, end: number, out: ScannedValueList, doc: ScannedDocument): boolean {
    const serial = ++this.serial;
    // looked up once per document: most indexes have no multi-fields
    const multiFields = this.slots.hasMultiFields;
    doc.ts = NaN;
    let i = start;
    while (i < end && isSpace(bytes[i]!)) i++;
    if (i >= end || bytes[i] !== LBRACE) return false;
    i++;
    let members = 0;
    for (;;) {
      while (i < end && isSpace(bytes[i]!)) i++;
      if (i >= end || bytes[i] !== QUOTE) return false;
      const keyStart = ++i;
      while (i < end) {
        const c = bytes[i]!;
        if (c === QUOTE) break;
        if (c === BACKSLASH || c < 0x20 || c >= 0x80) return false;
        i++;
      }
      if (i >= end) return false;
      const keyEnd = i++;
      while (i < end && isSpace(bytes[i]!)) i++;
      if (i >= end || bytes[i] !== COLON) return false;
      i++;
      while (i < end && isSpace(bytes[i]!)) i++;
      if (i >= end) return false;
      const slot = this.slots.slotOf(bytes, keyStart, keyEnd);
      if (slot === SLOT_GENERAL && !(this.storedSources && isIdentityKey(bytes, keyStart, keyEnd))) return false;
      const valueStart = i;
      i = this.scanValue(bytes, i, end);
      if (i < 0) return false;
      const kind = bytes[valueStart]!;
      if (slot === SLOT_GENERAL) {
        // the `_id` and `_version` a stored source ends with (document/identity.ts): not indexed
      } else if (slot === SLOT_TS) {
        // epoch ms as an integer; anything else (strings, fractions, null) is rewritten in the source
        if (kind === QUOTE || kind === 0x6e /* null */ || kind === 0x74 || kind === 0x66 || !this.numIsInteger || !Number.isNaN(doc.ts)) return false;
        if (parseDateValue(this.numValue) !== this.numValue) return false;
        doc.ts = this.numValue;
      } else if (slot === SLOT_LID) {
        if (!this.storedSources || !(kind === MINUS || (kind >= ZERO && kind <= NINE)) || !this.numIsInteger) return false;
      } else {
        if (!this.addValue(slot, kind, valueStart, i, serial, out)) return false;
        const subs = multiFields ? this.slots.subSlotsOf(slot) : undefined;
        if (subs !== undefined && !this.addMultiFieldValues(subs, kind, valueStart, i, out)) return false;
      }
      members++;
      while (i < end && isSpace(bytes[i]!)) i++;
      if (i >= end) return false;
      const c = bytes[i++]!;
      if (c === COMMA) continue;
      if (c !== RBRACE) return false;
      break;
    }
    // the closing brace must end the line; an empty object takes the general path
    let last = i - 2;
    while (i < end && isSpace(bytes[i]!)) i++;
    if (i !== end || members === 0) return false;
    while (last > start && bytes[last]! <= 0x20) last--;
    doc.keepEnd = last + 1;
    return true;
  }

  /** Records one value of a mapped field when it fits the field's type as it is. */
  private addValue(slot: number, kind: number, valueStart: number, valueEnd: number, serial: number, out: ScannedValueList): boolean {
    if (kind === 0x6e) return true; // null: no value, as the general path skips it
    if (slot >= this.seenIn.length) this.growSeen(slot);
    if (this.seenIn[slot] === serial) return false;
    this.seenIn[slot] = serial;
    const type = this.slots.list[slot]!.type;
    switch (type) {
      case 'text':
        if (kind !== QUOTE) return false;
        out.push(slot, valueStart + 1, valueEnd - 1, 0);
        return true;
      case 'keyword':
        if (kind !== QUOTE || this.strHasEscape) return false;
        out.push(slot, valueStart + 1, valueEnd - 1, 0);
        return true;
      case 'long':
        if (kind === QUOTE || kind === 0x74 || kind === 0x66 || !this.numIsInteger) return false;
        out.push(slot, 0, 0, this.numValue);
        return true;
      case 'double':
        if (kind === QUOTE || kind === 0x74 || kind === 0x66) return false;
        out.push(slot, 0, 0, this.numValue);
        return true;
      case 'date': {
        if (kind === QUOTE || kind === 0x74 || kind === 0x66 || !this.numIsInteger) return false;
        const ms = parseDateValue(this.numValue);
        if (ms === null) return false;
        out.push(slot, 0, 0, ms);
        return true;
      }
      case 'boolean':
        if (kind !== 0x74 && kind !== 0x66) return false;
        out.push(slot, 0, 0, kind === 0x74 ? 1 : 0);
        return true;
    }
  }

  /**
   * The value just added, again for each multi-field of its field: strings into text and keyword
   * multi-fields as they are; anything needing a conversion goes the general path.
   */
  private addMultiFieldValues(subs: readonly number[], kind: number, valueStart: number, valueEnd: number, out: ScannedValueList): boolean {
    if (kind === 0x6e) return true;
    if (kind !== QUOTE) return false;
    for (const sub of subs) {
      const type = this.slots.list[sub]!.type;
      if (type === 'keyword' ? this.strHasEscape : type !== 'text') return false;
      out.push(sub, valueStart + 1, valueEnd - 1, 0);
    }
    return true;
  }

  /** Index just past the scalar value at `i`, or -1 for what the fast path does not take. */
  private scanValue(bytes: Uint8Array, i: number, end: number): number {
    const c = bytes[i]!;
    if (c === QUOTE) return this.scanString(bytes, i + 1, end);
    if (c === MINUS || (c >= ZERO && c <= NINE)) return this.scanNumber(bytes, i, end);
    if (c === 0x74) return matchWord(bytes, i, end, 'true');
    if (c === 0x66) return matchWord(bytes, i, end, 'false');
    if (c === 0x6e) return matchWord(bytes, i, end, 'null');
    return -1;
  }

  /** A string of ASCII text whose escapes all decode to separators; index past its closing quote. */
  private scanString(bytes: Uint8Array, i: number, end: number): number {
    this.strHasEscape = false;
    while (i < end) {
      const c = bytes[i]!;
      if (c === QUOTE) return i + 1;
      if (c === BACKSLASH) {
        if (i + 1 >= end || SIMPLE_ESCAPE[bytes[i + 1]!] === 0) return -1;
        this.strHasEscape = true;
        i += 2;
        continue;
      }
      if (c < 0x20 || c >= 0x80) return -1;
      i++;
    }
    return -1;
  }

  /** A JSON number; sets numValue and numIsInteger (an integer literal exact as a double). */
  private scanNumber(bytes: Uint8Array, i: number, end: number): number {
    const start = i;
    let negative = false;
    if (bytes[i] === MINUS) {
      negative = true;
      i++;
    }
    const digitsStart = i;
    let value = 0;
    while (i < end && bytes[i]! >= ZERO && bytes[i]! <= NINE) value = value * 10 + (bytes[i++]! - ZERO);
    const digits = i - digitsStart;
    if (digits === 0 || (digits > 1 && bytes[digitsStart] === ZERO)) return -1;
    let integer = true;
    if (i < end && bytes[i] === DOT) {
      integer = false;
      const fracStart = ++i;
      while (i < end && bytes[i]! >= ZERO && bytes[i]! <= NINE) i++;
      if (i === fracStart) return -1;
    }
    if (i < end && (bytes[i] === 0x65 || bytes[i] === 0x45)) {
      integer = false;
      i++;
      if (i < end && (bytes[i] === 0x2b || bytes[i] === MINUS)) i++;
      const expStart = i;
      while (i < end && bytes[i]! >= ZERO && bytes[i]! <= NINE) i++;
      if (i === expStart) return -1;
    }
    if (integer && digits <= MAX_EXACT_DIGITS) {
      // -0 is an integer literal whose value is -0: left to the general path
      if (negative && value === 0) return -1;
      this.numValue = negative ? -value : value;
      this.numIsInteger = true;
    } else {
      this.numValue = Number(Buffer.from(bytes.buffer, bytes.byteOffset + start, i - start).toString('latin1'));
      this.numIsInteger = false;
      // 1e400: the general path reports it as not a finite number
      if (!Number.isFinite(this.numValue)) return -1;
    }
    return i;
  }

  private growSeen(slot: number): void {
    const seen = new Int32Array(Math.max(slot + 1, this.seenIn.length * 2));
    seen.set(this.seenIn);
    this.seenIn = seen;
  }
}

/** `_id` or `_version`: the identity members of a stored source. */
function isIdentityKey(bytes: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  if (n === 3) return bytes[start] === 0x5f && bytes[start + 1] === 0x69 && bytes[start + 2] === 0x64;
  if (n !== 8) return false;
  for (let k = 0; k < 8; k++) if (bytes[start + k] !== VERSION_KEY.charCodeAt(k)) return false;
  return true;
}

const VERSION_KEY = '_version';

function matchWord(bytes: Uint8Array, i: number, end: number, word: string): number {
  if (i + word.length > end) return -1;
  for (let k = 0; k < word.length; k++) if (bytes[i + k] !== word.charCodeAt(k)) return -1;
  return i + word.length;
}
