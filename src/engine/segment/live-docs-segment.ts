/**
 * A read-only view of a segment without its deleted docs: the live docs keep their order and
 * are numbered 0..n-1 again. Compaction merges such views, so merged files drop deleted and
 * replaced documents. Terms whose docs are all deleted have empty postings here, which the
 * segment writer leaves out.
 */
import type { FieldInfo, FieldType, OrdinalColumn, PositionPostings, SegmentReader } from '../segment-reader.js';

class LiveDocsSegment implements SegmentReader {
  readonly id: string;
  readonly numDocs: number;
  readonly minTs: number;
  readonly maxTs: number;
  readonly maxLid: number;
  /** new doc id of each doc of the part, -1 when deleted */
  private readonly newOf: Int32Array;
  /** part doc id of each live doc */
  private readonly oldOf: Uint32Array;

  constructor(
    private readonly part: SegmentReader,
    deleted: Uint32Array,
  ) {
    this.id = part.id;
    this.minTs = part.minTs;
    this.maxTs = part.maxTs;
    this.maxLid = part.maxLid;
    const n = part.numDocs;
    const dead = new Uint8Array(n);
    for (const d of deleted) if (d < n) dead[d] = 1;
    this.newOf = new Int32Array(n);
    let live = 0;
    for (let d = 0; d < n; d++) this.newOf[d] = dead[d] === 1 ? -1 : live++;
    this.oldOf = new Uint32Array(live);
    for (let d = 0; d < n; d++) if (this.newOf[d]! >= 0) this.oldOf[this.newOf[d]!] = d;
    this.numDocs = live;
  }

  fields(): readonly FieldInfo[] {
    return this.part.fields();
  }

  fieldType(field: string): FieldType | undefined {
    return this.part.fieldType(field);
  }

  terms(field: string, from?: string): Iterable<string> {
    return this.part.terms(field, from);
  }

  docFreq(field: string, term: string): number {
    return this.postings(field, term)?.length ?? 0;
  }

  postings(field: string, term: string): Uint32Array | null {
    const docs = this.part.postings(field, term);
    return docs === null ? null : this.mapDocs(docs);
  }

  positions(field: string, term: string): PositionPostings | null {
    const p = this.part.positions(field, term);
    if (p === null) return null;
    const keep: number[] = [];
    let nPositions = 0;
    for (let i = 0; i < p.docs.length; i++) {
      if (this.newOf[p.docs[i]!]! < 0) continue;
      keep.push(i);
      nPositions += p.offsets[i + 1]! - p.offsets[i]!;
    }
    const docs = new Uint32Array(keep.length);
    const offsets = new Uint32Array(keep.length + 1);
    const positions = new Uint32Array(nPositions);
    let at = 0;
    keep.forEach((i, j) => {
      docs[j] = this.newOf[p.docs[i]!]!;
      offsets[j] = at;
      const slice = p.positions.subarray(p.offsets[i]!, p.offsets[i + 1]!);
      positions.set(slice, at);
      at += slice.length;
    });
    offsets[keep.length] = at;
    return { docs, offsets, positions };
  }

  numeric(field: string): Float64Array | null {
    const col = this.part.numeric(field);
    if (col === null) return null;
    const out = new Float64Array(this.numDocs);
    for (let d = 0; d < this.numDocs; d++) out[d] = col[this.oldOf[d]!]!;
    return out;
  }

  ordinals(field: string): OrdinalColumn | null {
    const col = this.part.ordinals(field);
    if (col === null) return null;
    // only the terms some live doc holds, still sorted
    const used = new Uint8Array(col.terms.length);
    for (let d = 0; d < this.numDocs; d++) {
      const o = col.ords[this.oldOf[d]!]!;
      if (o >= 0) used[o] = 1;
    }
    const rank = new Int32Array(col.terms.length);
    const terms: string[] = [];
    for (let t = 0; t < col.terms.length; t++) {
      rank[t] = terms.length;
      if (used[t] === 1) terms.push(col.terms[t]!);
    }
    const ords = new Int32Array(this.numDocs);
    for (let d = 0; d < this.numDocs; d++) {
      const o = col.ords[this.oldOf[d]!]!;
      ords[d] = o < 0 ? -1 : rank[o]!;
    }
    return { ords, terms };
  }

  exists(field: string): Uint32Array {
    return this.mapDocs(this.part.exists(field));
  }

  ids(): BigUint64Array {
    const ids = this.part.ids();
    const out = new BigUint64Array(this.numDocs);
    for (let d = 0; d < this.numDocs; d++) out[d] = ids[this.oldOf[d]!]!;
    return out;
  }

  source(doc: number): string {
    if (!Number.isInteger(doc) || doc < 0 || doc >= this.numDocs) throw new RangeError(`doc ${doc} is not in segment ${this.id}`);
    return this.part.source(this.oldOf[doc]!);
  }

  private mapDocs(docs: Uint32Array): Uint32Array {
    const out = new Uint32Array(docs.length);
    let n = 0;
    for (let i = 0; i < docs.length; i++) {
      const d = this.newOf[docs[i]!]!;
      if (d >= 0) out[n++] = d;
    }
    return out.subarray(0, n);
  }
}

/** The segment without the given docs (sorted doc ids); the segment itself when there are none. */
export function withoutDocs(part: SegmentReader, deleted: Uint32Array | undefined): SegmentReader {
  return deleted === undefined || deleted.length === 0 ? part : new LiveDocsSegment(part, deleted);
}
