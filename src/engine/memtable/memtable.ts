/**
 * The in-memory segment: takes documents one at a time and is searchable right after each `add`.
 * Readers see a consistent prefix: every array returned is a view of data written before the
 * call, and later writes only append (or move data to new arrays), never overwrite it.
 */
import { tokenize } from '../analysis/index.js';
import type { IndexedDocument } from '../document/index.js';
import type { FieldInfo, FieldType, OrdinalColumn, PositionPostings, SegmentReader } from '../segment-reader.js';
import { FieldData } from './field-data.js';
import { BigU64List, F64List } from './growable.js';
import { PlainPostings, PositionalPostings } from './postings-store.js';
import { SourceStore } from './source-store.js';

/** Positions skipped between the values of a multi-valued text field, so phrases do not span them. */
export const POSITION_GAP = 100;

const EMPTY_DOCS = new Uint32Array(0);

// V8 keeps substrings of 13+ characters as slices of their parent: copy such a term before it
// becomes a dictionary key, so the key does not keep a whole line alive
function ownString(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf8').toString('utf8');
}

export class Memtable implements SegmentReader {
  readonly createdAtMs = Date.now();
  private minTsMs = Infinity;
  private maxTsMs = -Infinity;
  private maxLidSeen = 0;

  private readonly fieldMap = new Map<string, FieldData>();
  private readonly fieldList: FieldData[] = [];
  private fieldInfos: FieldInfo[] | null = null;
  private readonly textPostings = new PositionalPostings();
  private readonly plainPostings = new PlainPostings();
  private readonly idList = new BigU64List(1024);
  private readonly tsList = new F64List(1024);
  private readonly lidList = new F64List(1024);
  private readonly sources = new SourceStore();
  private termBytes = 0;

  constructor(readonly id: string) {}

  get numDocs(): number {
    return this.sources.count;
  }

  get minTs(): number {
    return this.minTsMs;
  }

  get maxTs(): number {
    return this.maxTsMs;
  }

  get maxLid(): number {
    return this.maxLidSeen;
  }

  /**
   * Estimated heap and buffer bytes held, for flush decisions: typed arrays and buffers at their
   * capacity, dictionary terms at one byte per code unit (two beyond Latin-1) plus overhead.
   */
  get approxBytes(): number {
    let bytes = this.textPostings.byteSize + this.plainPostings.byteSize + this.sources.byteSize + this.termBytes;
    bytes += this.idList.data.byteLength + this.tsList.data.byteLength + this.lidList.data.byteLength;
    for (const f of this.fieldList) bytes += f.byteSize;
    return bytes;
  }

  /** Adds a document and returns its segment-local doc id. */
  add(doc: IndexedDocument): number {
    // refuse before writing anything, so a bad document leaves no trace
    for (const field of doc.fields) {
      const known = this.fieldMap.get(field.name);
      if (known !== undefined && known.type !== field.type) {
        // the index mapping fixes a field's type on first sight, so this is a caller bug
        throw new Error(`field [${field.name}] is ${known.type} in segment ${this.id}, got ${field.type}`);
      }
    }
    const d = this.sources.count;
    this.idList.push(doc.id);
    this.tsList.push(doc.ts);
    this.lidList.push(doc.lid);
    this.sources.add(doc.source);
    if (doc.ts < this.minTsMs) this.minTsMs = doc.ts;
    if (doc.ts > this.maxTsMs) this.maxTsMs = doc.ts;
    if (doc.lid > this.maxLidSeen) this.maxLidSeen = doc.lid;
    for (const field of doc.fields) {
      if (field.values.length === 0) continue;
      const f = this.field(field.name, field.type);
      switch (f.type) {
        case 'text':
          this.addText(f, d, field.values);
          break;
        case 'keyword':
          this.addKeyword(f, d, field.values);
          break;
        case 'boolean':
          this.addBoolean(f, d, field.values);
          break;
        default:
          this.addNumber(f, d, field.values);
      }
    }
    return d;
  }

  fields(): readonly FieldInfo[] {
    if (this.fieldInfos === null) this.fieldInfos = this.fieldList.map((f) => ({ name: f.name, type: f.type }));
    return this.fieldInfos;
  }

  fieldType(field: string): FieldType | undefined {
    return this.fieldMap.get(field)?.type;
  }

  *terms(field: string, from?: string): Iterable<string> {
    const sorted = this.fieldMap.get(field)?.sortedTerms();
    if (sorted === undefined) return;
    let i = 0;
    if (from !== undefined) {
      let hi = sorted.length;
      while (i < hi) {
        const mid = (i + hi) >>> 1;
        if (sorted[mid]! < from) i = mid + 1;
        else hi = mid;
      }
    }
    for (; i < sorted.length; i++) yield sorted[i]!;
  }

  docFreq(field: string, term: string): number {
    const f = this.fieldMap.get(field);
    const t = f === undefined ? -1 : f.termId(term);
    if (t < 0) return 0;
    return f!.type === 'text' ? this.textPostings.docFreq(t) : this.plainPostings.docFreq(t);
  }

  postings(field: string, term: string): Uint32Array | null {
    const f = this.fieldMap.get(field);
    const t = f === undefined ? -1 : f.termId(term);
    if (t < 0) return null;
    return f!.type === 'text' ? this.textPostings.postings(t) : this.plainPostings.postings(t);
  }

  positions(field: string, term: string): PositionPostings | null {
    const f = this.fieldMap.get(field);
    if (f === undefined || f.type !== 'text') return null;
    const t = f.termId(term);
    return t < 0 ? null : this.textPostings.positionPostings(t);
  }

  numeric(field: string): Float64Array | null {
    if (field === '_ts') return this.tsList.view();
    if (field === '_lid') return this.lidList.view();
    const f = this.fieldMap.get(field);
    return f === undefined ? null : f.numeric(this.numDocs);
  }

  ordinals(field: string): OrdinalColumn | null {
    const f = this.fieldMap.get(field);
    return f === undefined ? null : f.ordinals(this.numDocs);
  }

  exists(field: string): Uint32Array {
    const f = this.fieldMap.get(field);
    return f === undefined ? EMPTY_DOCS : f.docs.view();
  }

  ids(): BigUint64Array {
    return this.idList.view();
  }

  source(doc: number): string {
    if (!Number.isInteger(doc) || doc < 0 || doc >= this.sources.count) throw new RangeError(`doc ${doc} is not in segment ${this.id}`);
    return this.sources.get(doc);
  }

  private field(name: string, type: FieldType): FieldData {
    let f = this.fieldMap.get(name);
    if (f === undefined) {
      f = new FieldData(name, type);
      this.fieldMap.set(name, f);
      this.fieldList.push(f);
      this.fieldInfos = null;
    }
    return f;
  }

  private markExists(f: FieldData, d: number): boolean {
    if (f.lastDoc === d) return false;
    f.lastDoc = d;
    f.docs.push(d);
    return true;
  }

  /** Index of `term` in field `f`, registered with a new term id when first seen. */
  private internTerm(f: FieldData, term: string): number {
    const index = f.termIndex!.get(term);
    if (index !== undefined) return index;
    const own = ownString(term);
    this.termBytes += stringBytes(own) + 48;
    return f.addTerm(own, f.type === 'text' ? this.textPostings.newTerm() : this.plainPostings.newTerm());
  }

  private addText(f: FieldData, d: number, values: ReadonlyArray<string | number | boolean>): void {
    this.markExists(f, d);
    const store = this.textPostings;
    const index = f.termIndex!;
    const termIds = f.termIds!;
    let base = 0;
    for (let v = 0; v < values.length; v++) {
      const tokens = tokenize(String(values[v]));
      for (let p = 0; p < tokens.length; p++) {
        const token = tokens[p]!;
        let ti = index.get(token);
        if (ti === undefined) ti = this.internTerm(f, token);
        store.addPosition(termIds.data[ti]!, d, base + p);
      }
      base += tokens.length + POSITION_GAP;
    }
  }

  private addKeyword(f: FieldData, d: number, values: ReadonlyArray<string | number | boolean>): void {
    const first = this.markExists(f, d);
    for (let v = 0; v < values.length; v++) {
      const ti = this.internTerm(f, String(values[v]));
      this.plainPostings.addDoc(f.termIds!.data[ti]!, d);
      if (first && v === 0) f.firstTerm!.push(ti);
    }
  }

  private addBoolean(f: FieldData, d: number, values: ReadonlyArray<string | number | boolean>): void {
    const first = this.markExists(f, d);
    for (let v = 0; v < values.length; v++) {
      const b = values[v] === true || values[v] === 'true';
      const ti = this.internTerm(f, b ? 'true' : 'false');
      this.plainPostings.addDoc(f.termIds!.data[ti]!, d);
      if (first && v === 0) f.values!.push(b ? 1 : 0);
    }
  }

  private addNumber(f: FieldData, d: number, values: ReadonlyArray<string | number | boolean>): void {
    if (!this.markExists(f, d)) return;
    f.values!.push(Number(values[0]));
  }
}

const BEYOND_LATIN1 = /[^\x00-\xff]/;

function stringBytes(s: string): number {
  // V8 stores a string one byte per code unit when all of them fit, else two
  return BEYOND_LATIN1.test(s) ? s.length * 2 : s.length;
}
