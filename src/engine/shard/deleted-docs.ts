/**
 * The deleted documents of one index, by `_lid` (unique in an index and kept through flushes
 * and merges, so a delete names its document wherever it lives: a memtable, a segment file, a
 * document of a write not yet added). Searches get each segment's deleted docs as a sorted list
 * of its doc ids, computed from the `_lid` column and cached per segment until a delete comes.
 */
import type { SegmentReader } from '../segment-reader.js';
import { valueBound } from '../segment/points-index.js';

interface CachedDocs {
  generation: number;
  numDocs: number;
  docs: Uint32Array;
}

interface LidOrder {
  /** docs [0, checked) were checked */
  checked: number;
  ascending: boolean;
}

const NO_DOCS = new Uint32Array(0);

export class DeletedDocs {
  private readonly lids = new Set<number>();
  private generationValue = 0;
  private sortedLids: Float64Array | null = null;
  private readonly cache = new WeakMap<SegmentReader, CachedDocs>();
  private readonly order = new WeakMap<SegmentReader, LidOrder>();

  /** Changes with every delete: what was computed for an earlier generation is stale. */
  get generation(): number {
    return this.generationValue;
  }

  get size(): number {
    return this.lids.size;
  }

  has(lid: number): boolean {
    return this.lids.has(lid);
  }

  /** Marks a document deleted; false when it already was. */
  add(lid: number): boolean {
    if (this.lids.has(lid)) return false;
    this.lids.add(lid);
    this.changed();
    return true;
  }

  /** Forgets documents no segment holds any more (a merge dropped them). */
  forget(lids: Iterable<number>): void {
    let any = false;
    for (const lid of lids) any = this.lids.delete(lid) || any;
    if (any) this.changed();
  }

  /** Sorted doc ids of the segment's deleted docs; undefined when it has none. */
  docsOf(segment: SegmentReader): Uint32Array | undefined {
    if (this.lids.size === 0) return undefined;
    const n = segment.numDocs;
    const cached = this.cache.get(segment);
    if (cached !== undefined && cached.generation === this.generationValue && cached.numDocs === n) {
      return cached.docs.length === 0 ? undefined : cached.docs;
    }
    const docs = n === 0 ? NO_DOCS : this.compute(segment, n);
    this.cache.set(segment, { generation: this.generationValue, numDocs: n, docs });
    return docs.length === 0 ? undefined : docs;
  }

  /** The `_lid`s of the segment's deleted docs, ascending. */
  lidsOf(segment: SegmentReader): number[] {
    const docs = this.docsOf(segment);
    if (docs === undefined) return [];
    const lidColumn = segment.numeric('_lid')!;
    const out = Array.from(docs, (d) => lidColumn[d]!);
    return out.sort((a, b) => a - b);
  }

  private changed(): void {
    this.generationValue++;
    this.sortedLids = null;
  }

  private compute(segment: SegmentReader, n: number): Uint32Array {
    const lidColumn = segment.numeric('_lid');
    if (lidColumn === null) return NO_DOCS;
    if (!this.ascending(segment, lidColumn, n)) {
      const out: number[] = [];
      for (let d = 0; d < n; d++) if (this.lids.has(lidColumn[d]!)) out.push(d);
      return Uint32Array.from(out);
    }
    // each deleted lid in the segment's range, found by binary search in its lid column
    const sorted = (this.sortedLids ??= Float64Array.from(this.lids).sort());
    const first = lidColumn[0]!;
    const last = lidColumn[n - 1]!;
    const out: number[] = [];
    let doc = 0;
    for (let i = valueBound(sorted, first, false); i < sorted.length && sorted[i]! <= last; i++) {
      doc = valueBound(lidColumn, sorted[i]!, false, doc, n);
      if (doc < n && lidColumn[doc] === sorted[i]) out.push(doc);
    }
    return Uint32Array.from(out);
  }

  /** Whether the segment's lids rise with its doc ids (memtables and their files: always). */
  private ascending(segment: SegmentReader, lidColumn: Float64Array, n: number): boolean {
    let state = this.order.get(segment);
    if (state === undefined) this.order.set(segment, (state = { checked: 0, ascending: true }));
    for (let d = Math.max(1, state.checked); d < n && state.ascending; d++) {
      if (!(lidColumn[d]! > lidColumn[d - 1]!)) state.ascending = false;
    }
    state.checked = Math.max(state.checked, n);
    return state.ascending;
  }
}

/** The doc holding `lid` in the segment, or -1 (lids rise with doc ids in every segment). */
export function docOfLid(segment: SegmentReader, lid: number): number {
  const n = segment.numDocs;
  if (n === 0 || lid > segment.maxLid) return -1;
  const lidColumn = segment.numeric('_lid');
  if (lidColumn === null || lid < lidColumn[0]!) return -1;
  const at = valueBound(lidColumn, lid, false, 0, n);
  return at < n && lidColumn[at] === lid ? at : -1;
}
