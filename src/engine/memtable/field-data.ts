/**
 * What a memtable holds for one field: its term dictionary (term → term id in the shared
 * postings store), the docs that hold a value, and the first value of each such doc for columns.
 * Columns are kept sparse (parallel to the doc list) and turned into the dense per-doc arrays of
 * the reader interface on demand, extended incrementally while the field sees no new term.
 */
import type { FieldType, OrdinalColumn } from '../segment-reader.js';
import { F64List, I32List, U32List } from './growable.js';

export class FieldData {
  /** term → index in order of first sight; null for fields without terms */
  readonly termIndex: Map<string, number> | null;
  /** term index → term id in the postings store */
  readonly termIds: I32List | null;
  /** docs with at least one value, increasing */
  readonly docs = new U32List(16);
  /** numeric fields: first value of each doc in `docs` */
  readonly values: F64List | null;
  /** keyword fields: term index of the first value of each doc in `docs` */
  readonly firstTerm: I32List | null;
  lastDoc = -1;

  /** terms in order of first sight; `sorted` holds the first `sortedCount` of them, sorted */
  private readonly termList: string[] = [];
  private sorted: string[] = [];
  private sortedCount = 0;
  private dense: { column: Float64Array; synced: number } | null = null;
  private ords: { ords: Int32Array; terms: string[]; rank: Int32Array; synced: number } | null = null;

  constructor(
    readonly name: string,
    readonly type: FieldType,
  ) {
    const hasTerms = type === 'text' || type === 'keyword' || type === 'boolean';
    this.termIndex = hasTerms ? new Map() : null;
    this.termIds = hasTerms ? new I32List(16) : null;
    this.values = type === 'long' || type === 'double' || type === 'date' || type === 'boolean' ? new F64List(16) : null;
    this.firstTerm = type === 'keyword' ? new I32List(16) : null;
  }

  get termCount(): number {
    return this.termIndex === null ? 0 : this.termIndex.size;
  }

  /** Registers a new term; the caller has checked it is absent. */
  addTerm(term: string, termId: number): number {
    const index = this.termIndex!.size;
    this.termIndex!.set(term, index);
    this.termIds!.push(termId);
    this.termList.push(term);
    return index;
  }

  termId(term: string): number {
    const index = this.termIndex?.get(term);
    return index === undefined ? -1 : this.termIds!.data[index]!;
  }

  /**
   * Distinct terms sorted by UTF-16 code units; a new array whenever terms were added since
   * (the previous one stays as it was). New terms are sorted alone and merged in, so a live
   * memtable that gains a few terms between queries does not sort its whole dictionary again.
   */
  sortedTerms(): string[] {
    const total = this.termList.length;
    if (this.sortedCount === total) return this.sorted;
    const fresh = this.termList.slice(this.sortedCount).sort();
    const old = this.sorted;
    const merged: string[] = [];
    let i = 0;
    let j = 0;
    while (i < old.length && j < fresh.length) merged.push(old[i]! < fresh[j]! ? old[i++]! : fresh[j++]!);
    while (i < old.length) merged.push(old[i++]!);
    while (j < fresh.length) merged.push(fresh[j++]!);
    this.sorted = merged;
    this.sortedCount = total;
    return merged;
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

  ordinals(numDocs: number): OrdinalColumn | null {
    const firstTerm = this.firstTerm;
    if (firstTerm === null) return null;
    const terms = this.sortedTerms();
    let state = this.ords;
    if (state === null || state.terms !== terms) {
      // new terms shift ranks: start over in fresh arrays (old views stay as they were)
      const rank = new Int32Array(terms.length);
      const index = this.termIndex!;
      for (let r = 0; r < terms.length; r++) rank[index.get(terms[r]!)!] = r;
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
    if (this.termIds !== null) bytes += this.termIds.data.byteLength;
    if (this.dense !== null) bytes += this.dense.column.byteLength;
    if (this.ords !== null) bytes += this.ords.ords.byteLength + this.ords.rank.byteLength + this.ords.terms.length * 8;
    bytes += (this.sorted.length + this.termList.length) * 8;
    return bytes;
  }
}
