/**
 * What a memtable holds for one field: its terms (as term numbers of the memtable's TermHash, in
 * order of first sight), the docs that hold a value, and the first value of each such doc for
 * columns. Term strings are decoded only when a reader asks for sorted terms or ordinals.
 * Columns are kept sparse (parallel to the doc list) and turned into the dense per-doc arrays of
 * the reader interface on demand, extended incrementally while the field sees no new term.
 */
import { analyzerFor, type Analyzer } from '../analysis/index.js';
import type { FieldType, OrdinalColumn } from '../segment-reader.js';
import { F64List, I32List, U32List } from './growable.js';
import { decodeTerm } from './term-bytes.js';
import type { TermHash } from './term-hash.js';

export interface FieldDataSnapshot {
  name: string;
  type: FieldType;
  number: number;
  terms: Int32Array | null;
  docs: Uint32Array;
  values: Float64Array | null;
  firstTerm: Int32Array | null;
}

export class FieldData {
  /** term numbers (TermHash) by index within the field; null for fields without terms */
  terms: I32List | null;
  /** docs with at least one value, increasing */
  docs = new U32List(16);
  /** numeric fields: first value of each doc in `docs` */
  values: F64List | null;
  /** keyword fields: index within the field of the first value of each doc in `docs` */
  firstTerm: I32List | null;
  lastDoc = -1;
  /** text: whether its terms live in the positional postings store */
  readonly positional: boolean;
  /** text: how its values split into terms */
  readonly analyzer: Analyzer | null;

  /** the first `sortedCount` terms, sorted, with their indexes within the field */
  private sorted: string[] = [];
  private sortedLocal = new Int32Array(0);
  private sortedCount = 0;
  private dense: { column: Float64Array; synced: number } | null = null;
  private ords: { ords: Int32Array; terms: string[]; rank: Int32Array; synced: number } | null = null;

  constructor(
    readonly name: string,
    readonly type: FieldType,
    /** the field's number in the memtable, mixed into its terms' hashes */
    readonly number: number,
  ) {
    const hasTerms = type === 'text' || type === 'keyword' || type === 'boolean';
    this.terms = hasTerms ? new I32List(16) : null;
    this.positional = type === 'text';
    this.analyzer = type === 'text' ? analyzerFor(name) : null;
    this.values = type === 'long' || type === 'double' || type === 'date' || type === 'boolean' ? new F64List(16) : null;
    this.firstTerm = type === 'keyword' ? new I32List(16) : null;
  }

  snapshot(): FieldDataSnapshot {
    return this.arrays(true);
  }

  /** The arrays without a copy (appends go past them or to new arrays). */
  shared(): FieldDataSnapshot {
    return this.arrays(false);
  }

  private arrays(copy: boolean): FieldDataSnapshot {
    const of = <T>(list: { copy(): T; shared(): T } | null): T | null => (list === null ? null : copy ? list.copy() : list.shared());
    return { name: this.name, type: this.type, number: this.number, terms: of(this.terms), docs: of(this.docs)!, values: of(this.values), firstTerm: of(this.firstTerm) };
  }

  static restore(s: FieldDataSnapshot): FieldData {
    const f = new FieldData(s.name, s.type, s.number);
    f.terms = s.terms === null ? null : I32List.of(s.terms);
    f.docs = U32List.of(s.docs);
    f.values = s.values === null ? null : F64List.of(s.values);
    f.firstTerm = s.firstTerm === null ? null : I32List.of(s.firstTerm);
    return f;
  }

  /**
   * Takes the sorted terms and dense columns another reader of the same memtable built: they
   * hold for this one's prefix too (terms and docs are only ever appended).
   */
  inheritCaches(previous: FieldData): void {
    this.sorted = previous.sorted;
    this.sortedLocal = previous.sortedLocal;
    this.sortedCount = previous.sortedCount;
    this.dense = previous.dense;
    this.ords = previous.ords;
  }

  get termCount(): number {
    return this.terms === null ? 0 : this.terms.length;
  }

  /**
   * Distinct terms sorted by UTF-16 code units; a new array whenever terms were added since
   * (the previous one stays as it was). New terms are sorted alone and merged in, so a live
   * memtable that gains a few terms between queries does not sort its whole dictionary again.
   */
  sortedTerms(dict: TermHash): string[] {
    const total = this.termCount;
    if (this.sortedCount === total) return this.sorted;
    const termNumbers = this.terms!.data;
    const fresh: Array<{ term: string; local: number }> = [];
    for (let i = this.sortedCount; i < total; i++) fresh.push({ term: decodeTerm(dict.bytesOf(termNumbers[i]!)), local: i });
    fresh.sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    const old = this.sorted;
    const oldLocal = this.sortedLocal;
    const merged: string[] = new Array(total);
    const mergedLocal = new Int32Array(total);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < old.length && j < fresh.length) {
      if (old[i]! < fresh[j]!.term) {
        mergedLocal[k] = oldLocal[i]!;
        merged[k++] = old[i++]!;
      } else {
        mergedLocal[k] = fresh[j]!.local;
        merged[k++] = fresh[j++]!.term;
      }
    }
    for (; i < old.length; i++, k++) {
      mergedLocal[k] = oldLocal[i]!;
      merged[k] = old[i]!;
    }
    for (; j < fresh.length; j++, k++) {
      mergedLocal[k] = fresh[j]!.local;
      merged[k] = fresh[j]!.term;
    }
    this.sorted = merged;
    this.sortedLocal = mergedLocal;
    this.sortedCount = total;
    return merged;
  }

  /** Term number (TermHash) of the term at index `r` of `sorted`, if that is the current sorted list; else -1. */
  termNumberOfSorted(sorted: readonly string[], r: number): number {
    return sorted === this.sorted ? this.terms!.data[this.sortedLocal[r]!]! : -1;
  }

  numeric(numDocs: number): Float64Array | null {
    const values = this.values;
    if (values === null) return null;
    let dense = this.dense;
    if (dense === null || dense.column.length < numDocs) {
      const column = new Float64Array(Math.max(numDocs, 16, dense === null ? 0 : dense.column.length * 2));
      column.fill(NaN);
      if (dense !== null) column.set(dense.column.subarray(0, Math.min(dense.column.length, numDocs)));
      dense = { column, synced: dense === null ? 0 : dense.synced };
      this.dense = dense;
    }
    // only slots past every view handed out so far are written
    const docs = this.docs.data;
    const vals = values.data;
    const column = dense.column;
    for (let j = dense.synced; j < this.docs.length; j++) column[docs[j]!] = vals[j]!;
    dense.synced = this.docs.length;
    return column.subarray(0, numDocs);
  }

  ordinals(numDocs: number, dict: TermHash): OrdinalColumn | null {
    const firstTerm = this.firstTerm;
    if (firstTerm === null) return null;
    const terms = this.sortedTerms(dict);
    let state = this.ords;
    if (state === null || state.terms !== terms) {
      // new terms shift ranks: start over in fresh arrays (old views stay as they were)
      const rank = new Int32Array(terms.length);
      const sortedLocal = this.sortedLocal;
      for (let r = 0; r < terms.length; r++) rank[sortedLocal[r]!] = r;
      const ords = new Int32Array(Math.max(numDocs, 16));
      ords.fill(-1);
      state = { ords, terms, rank, synced: 0 };
      this.ords = state;
    } else if (state.ords.length < numDocs) {
      const ords = new Int32Array(Math.max(numDocs, state.ords.length * 2));
      ords.fill(-1);
      ords.set(state.ords);
      state.ords = ords;
    }
    const docs = this.docs.data;
    const first = firstTerm.data;
    const { ords, rank } = state;
    for (let j = state.synced; j < this.docs.length; j++) ords[docs[j]!] = rank[first[j]!]!;
    state.synced = this.docs.length;
    return { ords: ords.subarray(0, numDocs), terms };
  }

  get byteSize(): number {
    let bytes = 64 + this.docs.data.byteLength;
    if (this.values !== null) bytes += this.values.data.byteLength;
    if (this.firstTerm !== null) bytes += this.firstTerm.data.byteLength;
    if (this.terms !== null) bytes += this.terms.data.byteLength;
    if (this.dense !== null) bytes += this.dense.column.byteLength;
    if (this.ords !== null) bytes += this.ords.ords.byteLength + this.ords.rank.byteLength + this.ords.terms.length * 8;
    bytes += this.sorted.length * 8 + this.sortedLocal.byteLength;
    return bytes;
  }
}
