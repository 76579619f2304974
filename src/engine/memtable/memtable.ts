/**
 * The in-memory segment: takes documents one at a time and is searchable right after each `add`.
 * Readers see a consistent prefix: every array returned is a view of data written before the
 * call, and later writes only append (or move data to new arrays), never overwrite it.
 */
import { LINE_ANALYZER, MAX_TOKEN_LENGTH } from '../analysis/index.js';
import type { IndexedDocument } from '../document/index.js';
import type { FieldInfo, FieldType, OrdinalColumn, PositionPostings, SegmentReader } from '../segment-reader.js';
import { FieldData, type FieldDataSnapshot } from './field-data.js';
import { BigU64List, F64List } from './growable.js';
import { PlainPostings, PositionalPostings, type PlainPostingsSnapshot, type PositionalPostingsSnapshot } from './postings-store.js';
import type { ScannedValues } from './scanned-docs.js';
import { SourceStore, type SourceStoreSnapshot } from './source-store.js';
import { TermScratch } from './term-bytes.js';
import { transferableBuffers } from './memory.js';
import { finishHash, hashBytes, TermHash, type TermHashSnapshot } from './term-hash.js';

/** Positions skipped between the values of a multi-valued text field, so phrases do not span them. */
export const POSITION_GAP = 100;

const EMPTY_DOCS = new Uint32Array(0);

// ASCII classes for tokenizing JSON string bytes: 0 separator (and every byte >= 0x80, which
// the scanner never hands over), 1 lowercase letter or digit, 2 uppercase letter
const BYTE_CLASS = new Uint8Array(256);
for (let c = 0x30; c <= 0x39; c++) BYTE_CLASS[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) BYTE_CLASS[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) BYTE_CLASS[c] = 2;
const BACKSLASH = 0x5c;

const TRUE_KEY = Buffer.from('true');
const FALSE_KEY = Buffer.from('false');

/**
 * A frozen copy of a memtable's arrays: it crosses to a segment writer thread (its buffers
 * transferred, see `snapshotTransferables`) and is searchable there again as a Memtable.
 */
export interface MemtableSnapshot {
  id: string;
  createdAtMs: number;
  minTs: number;
  maxTs: number;
  maxLid: number;
  ids: BigUint64Array;
  ts: Float64Array;
  lids: Float64Array;
  sources: SourceStoreSnapshot;
  dict: TermHashSnapshot;
  fields: FieldDataSnapshot[];
  text: PositionalPostingsSnapshot;
  plain: PlainPostingsSnapshot;
}

export class Memtable implements SegmentReader {
  readonly live = true;
  readonly createdAtMs: number;
  private minTsMs = Infinity;
  private maxTsMs = -Infinity;
  private maxLidSeen = 0;

  private readonly fieldMap = new Map<string, FieldData>();
  private readonly fieldList: FieldData[] = [];
  private fieldInfos: FieldInfo[] | null = null;
  private readonly textPostings: PositionalPostings;
  private readonly plainPostings: PlainPostings;
  private readonly idList: BigU64List;
  private readonly tsList: F64List;
  private readonly lidList: F64List;
  private readonly sources: SourceStore;
  private readonly dict: TermHash;
  private readonly scratch = new TermScratch();
  private readonly tokenBytes = new Uint8Array(MAX_TOKEN_LENGTH);
  /** fields by the slot numbers of scanned documents */
  private readonly bySlot: Array<FieldData | undefined> = [];
  /** the term `terms()` yielded last: its field, the sorted list and its index there */
  private readonly cursor: { field: FieldData | null; sorted: readonly string[] | null; index: number } = { field: null, sorted: null, index: 0 };
  /** `_line` tokens of the last document added (metrics) */
  lastTokenCount = 0;

  /** An empty memtable, or a read-only one over a snapshot's arrays. */
  constructor(
    readonly id: string,
    snapshot?: MemtableSnapshot,
  ) {
    if (snapshot === undefined) {
      this.createdAtMs = Date.now();
      this.textPostings = new PositionalPostings();
      this.plainPostings = new PlainPostings();
      this.idList = new BigU64List(1024);
      this.tsList = new F64List(1024);
      this.lidList = new F64List(1024);
      this.sources = new SourceStore();
      this.dict = new TermHash();
      return;
    }
    this.createdAtMs = snapshot.createdAtMs;
    this.minTsMs = snapshot.minTs;
    this.maxTsMs = snapshot.maxTs;
    this.maxLidSeen = snapshot.maxLid;
    this.textPostings = new PositionalPostings(snapshot.text);
    this.plainPostings = new PlainPostings(snapshot.plain);
    this.idList = BigU64List.of(snapshot.ids);
    this.tsList = F64List.of(snapshot.ts);
    this.lidList = F64List.of(snapshot.lids);
    this.sources = SourceStore.restore(snapshot.sources);
    this.dict = TermHash.restore(snapshot.dict);
    for (const f of snapshot.fields) {
      const field = FieldData.restore(f);
      this.fieldMap.set(field.name, field);
      this.fieldList.push(field);
    }
  }

  /** A frozen copy of everything the memtable holds (to write it elsewhere while it still serves searches). */
  snapshot(): MemtableSnapshot {
    return this.arrays(true);
  }

  /**
   * Everything the memtable holds as it is now, without a copy: on an indexing thread its arrays
   * are shared memory, and the main thread reads them while no write runs (src/engine/indexer).
   */
  shared(): MemtableSnapshot {
    return this.arrays(false);
  }

  private arrays(copy: boolean): MemtableSnapshot {
    return {
      id: this.id,
      createdAtMs: this.createdAtMs,
      minTs: this.minTsMs,
      maxTs: this.maxTsMs,
      maxLid: this.maxLidSeen,
      ids: copy ? this.idList.copy() : this.idList.shared(),
      ts: copy ? this.tsList.copy() : this.tsList.shared(),
      lids: copy ? this.lidList.copy() : this.lidList.shared(),
      sources: copy ? this.sources.snapshot() : this.sources.shared(),
      dict: copy ? this.dict.snapshot() : this.dict.shared(),
      fields: this.fieldList.map((f) => (copy ? f.snapshot() : f.shared())),
      text: copy ? this.textPostings.snapshot() : this.textPostings.shared(),
      plain: copy ? this.plainPostings.snapshot() : this.plainPostings.shared(),
    };
  }

  /** Takes what `previous`, a reader over an earlier state of the same memtable, derived (FieldData.inheritCaches). */
  inheritCaches(previous: Memtable): void {
    for (const f of this.fieldList) {
      const old = previous.fieldMap.get(f.name);
      if (old !== undefined) f.inheritCaches(old);
    }
  }

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
    let bytes = this.textPostings.byteSize + this.plainPostings.byteSize + this.sources.byteSize + this.dict.byteSize;
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
    this.addIdentity(doc.id, doc.ts, doc.lid);
    this.sources.add(doc.source);
    this.lastTokenCount = 0;
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

  /**
   * Adds a document scanned from its JSON text: values [from, to) of `values`, at most one per
   * field, each fitting its field's type (the scanner checked), and the stored source as bytes.
   */
  addScanned(id: bigint, ts: number, lid: number, source: Uint8Array, sourceStart: number, sourceEnd: number, values: ScannedValues, from: number, to: number): number {
    const d = this.sources.count;
    this.addIdentity(id, ts, lid);
    this.sources.addBytes(source, sourceStart, sourceEnd);
    this.lastTokenCount = 0;
    const bytes = values.bytes;
    for (let v = from; v < to; v++) {
      const slot = values.slot[v]!;
      let f = this.bySlot[slot];
      if (f === undefined) {
        const info = values.slots[slot]!;
        f = this.field(info.name, info.type);
        this.bySlot[slot] = f;
      }
      this.markExists(f, d);
      switch (f.type) {
        case 'text':
          if (f.analyzer === LINE_ANALYZER) this.lastTokenCount += this.addTextBytes(f, d, bytes, values.start[v]!, values.end[v]!);
          else this.addText(f, d, [jsonAsciiString(bytes, values.start[v]!, values.end[v]!)]);
          break;
        case 'keyword': {
          const start = values.start[v]!;
          const end = values.end[v]!;
          const t = this.intern(f, bytes, start, end, hashBytes(bytes, start, end, f.number));
          this.plainPostings.addDoc(this.dict.payload(t), d);
          f.firstTerm!.push(this.dict.localIndex(t));
          break;
        }
        case 'boolean': {
          const b = values.num[v] === 1;
          this.addBooleanValue(f, d, b);
          f.values!.push(b ? 1 : 0);
          break;
        }
        default:
          f.values!.push(values.num[v]!);
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
    const sorted = this.fieldMap.get(field)?.sortedTerms(this.dict);
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
    const f = this.fieldMap.get(field)!;
    for (; i < sorted.length; i++) {
      // the segment writer asks for the postings of each term as it walks them: remember where
      // the walk is, so that lookup needs no hashing
      this.cursor.field = f;
      this.cursor.sorted = sorted;
      this.cursor.index = i;
      yield sorted[i]!;
    }
  }

  docFreq(field: string, term: string): number {
    const f = this.fieldMap.get(field);
    const t = f === undefined ? -1 : this.postingsId(f, term);
    if (t < 0) return 0;
    return f!.positional ? this.textPostings.docFreq(t) : this.plainPostings.docFreq(t);
  }

  postings(field: string, term: string): Uint32Array | null {
    const f = this.fieldMap.get(field);
    const t = f === undefined ? -1 : this.postingsId(f, term);
    if (t < 0) return null;
    return f!.positional ? this.textPostings.postings(t) : this.plainPostings.postings(t);
  }

  positions(field: string, term: string): PositionPostings | null {
    const f = this.fieldMap.get(field);
    if (f === undefined || !f.positional) return null;
    const t = this.postingsId(f, term);
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
    return f === undefined ? null : f.ordinals(this.numDocs, this.dict);
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

  sourceBytes(doc: number): Uint8Array {
    if (!Number.isInteger(doc) || doc < 0 || doc >= this.sources.count) throw new RangeError(`doc ${doc} is not in segment ${this.id}`);
    return this.sources.bytes(doc);
  }

  private addIdentity(id: bigint, ts: number, lid: number): void {
    this.idList.push(id);
    this.tsList.push(ts);
    this.lidList.push(lid);
    if (ts < this.minTsMs) this.minTsMs = ts;
    if (ts > this.maxTsMs) this.maxTsMs = ts;
    if (lid > this.maxLidSeen) this.maxLidSeen = lid;
  }

  private field(name: string, type: FieldType): FieldData {
    let f = this.fieldMap.get(name);
    if (f === undefined) {
      f = new FieldData(name, type, this.fieldList.length);
      this.fieldMap.set(name, f);
      this.fieldList.push(f);
      this.fieldInfos = null;
    }
    return f;
  }

  /** Postings id of a term of field `f`, or -1. */
  private postingsId(f: FieldData, term: string): number {
    const cursor = this.cursor;
    if (cursor.field === f && cursor.sorted !== null && cursor.sorted[cursor.index] === term) {
      const t = f.termNumberOfSorted(cursor.sorted, cursor.index);
      if (t >= 0) return this.dict.payload(t);
    }
    const len = this.scratch.encode(term);
    const key = this.scratch.buf;
    const t = this.dict.find(f.number, key, 0, len, hashBytes(key, 0, len, f.number));
    return t < 0 ? -1 : this.dict.payload(t);
  }

  private markExists(f: FieldData, d: number): boolean {
    if (f.lastDoc === d) return false;
    f.lastDoc = d;
    f.docs.push(d);
    return true;
  }

  /** Term number of the key bytes [start, end) in field `f`, registered when first seen. */
  private intern(f: FieldData, bytes: Uint8Array, start: number, end: number, hash: number): number {
    const found = this.dict.find(f.number, bytes, start, end, hash);
    if (found >= 0) return found;
    const postingsId = f.positional ? this.textPostings.newTerm() : this.plainPostings.newTerm();
    const t = this.dict.insert(f.number, bytes, start, end, hash, postingsId, f.terms!.length);
    f.terms!.push(t);
    return t;
  }

  /** Term number of a term given as a string. */
  private internString(f: FieldData, term: string): number {
    const len = this.scratch.encode(term);
    const key = this.scratch.buf;
    return this.intern(f, key, 0, len, hashBytes(key, 0, len, f.number));
  }

  private addText(f: FieldData, d: number, values: ReadonlyArray<string | number | boolean>): void {
    this.markExists(f, d);
    const store = this.textPostings;
    let base = 0;
    for (let v = 0; v < values.length; v++) {
      const tokens = f.analyzer!.tokens(String(values[v]));
      for (let p = 0; p < tokens.length; p++) {
        store.addPosition(this.dict.payload(this.internString(f, tokens[p]!)), d, base + p);
      }
      this.lastTokenCount += tokens.length;
      base += tokens.length + POSITION_GAP;
    }
  }

  /**
   * Tokenizes the bytes of a JSON string (ASCII, escapes other than \u undecoded: each stands
   * for a separator) with the rule of `tokenize`, and indexes the tokens; returns their count.
   */
  private addTextBytes(f: FieldData, d: number, bytes: Uint8Array, start: number, end: number): number {
    const store = this.textPostings;
    const token = this.tokenBytes;
    const field = f.number;
    let pos = 0;
    let i = start;
    while (i < end) {
      let c = bytes[i]!;
      if (c === BACKSLASH) {
        i += 2;
        continue;
      }
      if (BYTE_CLASS[c] === 0) {
        i++;
        continue;
      }
      let h = 0x811c9dc5;
      let len = 0;
      while (i < end) {
        c = bytes[i]!;
        const k = BYTE_CLASS[c]!;
        if (k === 0) break;
        if (k === 2) c |= 0x20;
        // a token is cut at MAX_TOKEN_LENGTH; the rest of its run is dropped
        if (len < MAX_TOKEN_LENGTH) {
          token[len++] = c;
          h = Math.imul(h ^ c, 0x01000193);
        }
        i++;
      }
      const t = this.intern(f, token, 0, len, finishHash(h, field));
      store.addPosition(this.dict.payload(t), d, pos++);
    }
    return pos;
  }

  private addKeyword(f: FieldData, d: number, values: ReadonlyArray<string | number | boolean>): void {
    const first = this.markExists(f, d);
    for (let v = 0; v < values.length; v++) {
      const t = this.internString(f, String(values[v]));
      this.plainPostings.addDoc(this.dict.payload(t), d);
      if (first && v === 0) f.firstTerm!.push(this.dict.localIndex(t));
    }
  }

  private addBooleanValue(f: FieldData, d: number, b: boolean): void {
    const key = b ? TRUE_KEY : FALSE_KEY;
    const t = this.intern(f, key, 0, key.length, hashBytes(key, 0, key.length, f.number));
    this.plainPostings.addDoc(this.dict.payload(t), d);
  }

  private addBoolean(f: FieldData, d: number, values: ReadonlyArray<string | number | boolean>): void {
    const first = this.markExists(f, d);
    for (let v = 0; v < values.length; v++) {
      const b = values[v] === true || values[v] === 'true';
      this.addBooleanValue(f, d, b);
      if (first && v === 0) f.values!.push(b ? 1 : 0);
    }
  }

  private addNumber(f: FieldData, d: number, values: ReadonlyArray<string | number | boolean>): void {
    if (!this.markExists(f, d)) return;
    f.values!.push(Number(values[0]));
  }
}

/**
 * The text of a scanned JSON string (ASCII; its only escapes stand for separators: quote,
 * backslash, slash and control characters), each escape read as a space: the same tokens.
 */
function jsonAsciiString(bytes: Uint8Array, start: number, end: number): string {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
  return raw.includes('\\') ? raw.replace(/\\./g, ' ') : raw;
}

/**
 * Every buffer of a snapshot that is not shared memory, to transfer it to another thread instead
 * of copying it again (shared ones cross without a copy anyway).
 */
export function snapshotTransferables(s: MemtableSnapshot): ArrayBuffer[] {
  const arenas = [s.text.docs, s.text.offsets, s.text.positions, s.plain.docs];
  const arrays: Array<{ buffer: ArrayBufferLike }> = [s.ids, s.ts, s.lids, s.sources.chunkOf, s.sources.offsets, s.sources.lengths, ...s.sources.chunks];
  arrays.push(s.dict.arena, s.dict.records, s.dict.table);
  arrays.push(s.text.counts, s.plain.counts);
  for (const a of arenas) arrays.push(a.data, a.starts, ...a.own);
  for (const f of s.fields) {
    arrays.push(f.docs);
    if (f.terms) arrays.push(f.terms);
    if (f.values) arrays.push(f.values);
    if (f.firstTerm) arrays.push(f.firstTerm);
  }
  return transferableBuffers(arrays);
}
