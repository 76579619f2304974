/**
 * A read-only view of several segments as one: the docs of part k follow those of parts 0..k-1
 * (doc ids offset by their numDocs), term dictionaries and keyword ordinals are merged. Compaction
 * writes it out with writeSegment(mergeSegments(...), path).
 *
 * Type conflicts: a field takes the type it has in the first part that holds it. A part where the
 * field has another type contributes to it only when both types are numeric (long, double, date:
 * its values are kept as they are, as numbers, along with its terms and presence); otherwise
 * that part's values of the field are dropped from terms, columns and presence (its `_source`
 * text is unchanged).
 */
import type { FieldInfo, FieldType, OrdinalColumn, PositionPostings, SegmentReader } from '../segment-reader.js';

const NUMERIC_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(['long', 'double', 'date']);

function compatible(target: FieldType, other: FieldType): boolean {
  return target === other || (NUMERIC_TYPES.has(target) && NUMERIC_TYPES.has(other));
}

class MergedSegment implements SegmentReader {
  readonly numDocs: number;
  readonly minTs: number;
  readonly maxTs: number;
  readonly maxLid: number;
  /** first doc id of each part, then numDocs */
  private readonly bases: number[];
  private readonly fieldInfos: FieldInfo[] = [];
  private readonly fieldTypes = new Map<string, FieldType>();
  /** per field, the indexes of the parts that contribute to it */
  private readonly contributors = new Map<string, number[]>();

  constructor(
    readonly id: string,
    private readonly parts: readonly SegmentReader[],
  ) {
    this.bases = [0];
    let minTs = Infinity;
    let maxTs = -Infinity;
    let maxLid = 0;
    for (const p of parts) {
      this.bases.push(this.bases[this.bases.length - 1]! + p.numDocs);
      minTs = Math.min(minTs, p.minTs);
      maxTs = Math.max(maxTs, p.maxTs);
      maxLid = Math.max(maxLid, p.maxLid);
    }
    this.numDocs = this.bases[parts.length]!;
    this.minTs = minTs;
    this.maxTs = maxTs;
    this.maxLid = maxLid;
    parts.forEach((p, k) => {
      for (const f of p.fields()) {
        let type = this.fieldTypes.get(f.name);
        if (type === undefined) {
          type = f.type;
          this.fieldTypes.set(f.name, type);
          this.fieldInfos.push({ name: f.name, type });
          this.contributors.set(f.name, []);
        }
        if (compatible(type, f.type)) this.contributors.get(f.name)!.push(k);
      }
    });
  }

  fields(): readonly FieldInfo[] {
    return this.fieldInfos;
  }

  fieldType(field: string): FieldType | undefined {
    return this.fieldTypes.get(field);
  }

  *terms(field: string, from?: string): Iterable<string> {
    const iters = this.partsOf(field).map((k) => this.parts[k]!.terms(field, from)[Symbol.iterator]());
    const heads: (string | undefined)[] = iters.map((it) => {
      const r = it.next();
      return r.done ? undefined : r.value;
    });
    for (;;) {
      let min: string | undefined;
      for (const h of heads) if (h !== undefined && (min === undefined || h < min)) min = h;
      if (min === undefined) return;
      yield min;
      for (let i = 0; i < heads.length; i++) {
        if (heads[i] !== min) continue;
        const r = iters[i]!.next();
        heads[i] = r.done ? undefined : r.value;
      }
    }
  }

  docFreq(field: string, term: string): number {
    let n = 0;
    for (const k of this.partsOf(field)) n += this.parts[k]!.docFreq(field, term);
    return n;
  }

  postings(field: string, term: string): Uint32Array | null {
    const lists: Array<[number, Uint32Array]> = [];
    let total = 0;
    for (const k of this.partsOf(field)) {
      const docs = this.parts[k]!.postings(field, term);
      if (docs === null || docs.length === 0) continue;
      lists.push([k, docs]);
      total += docs.length;
    }
    if (lists.length === 0) return null;
    return this.concatDocs(lists, total);
  }

  positions(field: string, term: string): PositionPostings | null {
    const found: Array<[number, PositionPostings]> = [];
    let nDocs = 0;
    let nPositions = 0;
    for (const k of this.partsOf(field)) {
      const p = this.parts[k]!.positions(field, term);
      if (p === null || p.docs.length === 0) continue;
      found.push([k, p]);
      nDocs += p.docs.length;
      nPositions += p.offsets[p.docs.length]! - p.offsets[0]!;
    }
    if (found.length === 0) return null;
    const docs = this.concatDocs(found.map(([k, p]) => [k, p.docs]), nDocs);
    const offsets = new Uint32Array(nDocs + 1);
    const positions = new Uint32Array(nPositions);
    let d = 0;
    let at = 0;
    for (const [, p] of found) {
      const first = p.offsets[0]!;
      const last = p.offsets[p.docs.length]!;
      positions.set(p.positions.subarray(first, last), at);
      for (let i = 0; i < p.docs.length; i++) offsets[d++] = at + p.offsets[i]! - first;
      at += last - first;
    }
    offsets[nDocs] = at;
    return { docs, offsets, positions };
  }

  numeric(field: string): Float64Array | null {
    const special = field === '_ts' || field === '_lid';
    const type = this.fieldTypes.get(field);
    if (!special && (type === undefined || !(NUMERIC_TYPES.has(type) || type === 'boolean'))) return null;
    const out = new Float64Array(this.numDocs).fill(NaN);
    const ks = special ? this.parts.map((_, k) => k) : this.partsOf(field);
    for (const k of ks) {
      const part = this.parts[k]!;
      const col = part.numeric(field);
      if (col !== null) out.set(col.subarray(0, part.numDocs), this.bases[k]!);
    }
    return out;
  }

  ordinals(field: string): OrdinalColumn | null {
    if (this.fieldTypes.get(field) !== 'keyword') return null;
    const cols: Array<[number, OrdinalColumn]> = [];
    for (const k of this.partsOf(field)) {
      const c = this.parts[k]!.ordinals(field);
      if (c !== null) cols.push([k, c]);
    }
    const terms = mergeSorted(cols.map(([, c]) => c.terms));
    const ords = new Int32Array(this.numDocs).fill(-1);
    for (const [k, c] of cols) {
      // the part's terms are sorted too: one pass maps each to its rank in the union
      const map = new Int32Array(c.terms.length);
      let j = 0;
      for (let i = 0; i < c.terms.length; i++) {
        while (terms[j] !== c.terms[i]) j++;
        map[i] = j;
      }
      const base = this.bases[k]!;
      const n = this.parts[k]!.numDocs;
      for (let d = 0; d < n; d++) {
        const o = c.ords[d]!;
        if (o >= 0) ords[base + d] = map[o]!;
      }
    }
    return { ords, terms };
  }

  exists(field: string): Uint32Array {
    const lists: Array<[number, Uint32Array]> = [];
    let total = 0;
    for (const k of this.partsOf(field)) {
      const docs = this.parts[k]!.exists(field);
      lists.push([k, docs]);
      total += docs.length;
    }
    return this.concatDocs(lists, total);
  }

  ids(): BigUint64Array {
    const out = new BigUint64Array(this.numDocs);
    this.parts.forEach((p, k) => out.set(p.ids().subarray(0, p.numDocs), this.bases[k]!));
    return out;
  }

  source(doc: number): string {
    if (!Number.isInteger(doc) || doc < 0 || doc >= this.numDocs) throw new RangeError(`doc ${doc} is not in segment ${this.id}`);
    let lo = 0;
    let hi = this.parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      // the last part starting at or before doc: empty parts share a base with the next one
      if (this.bases[mid]! <= doc) lo = mid;
      else hi = mid - 1;
    }
    return this.parts[lo]!.source(doc - this.bases[lo]!);
  }

  private partsOf(field: string): readonly number[] {
    return this.contributors.get(field) ?? [];
  }

  private concatDocs(lists: ReadonlyArray<readonly [number, Uint32Array]>, total: number): Uint32Array {
    const out = new Uint32Array(total);
    let at = 0;
    for (const [k, docs] of lists) {
      const base = this.bases[k]!;
      for (let i = 0; i < docs.length; i++) out[at++] = docs[i]! + base;
    }
    return out;
  }
}

/** Sorted distinct union of sorted string lists. */
function mergeSorted(lists: ReadonlyArray<readonly string[]>): string[] {
  if (lists.length === 1) return lists[0]!.slice();
  const all = new Set<string>();
  for (const l of lists) for (const t of l) all.add(t);
  return Array.from(all).sort();
}

/** Concatenates segments into one read-only view; see the header for type conflicts. */
export function mergeSegments(id: string, parts: readonly SegmentReader[]): SegmentReader {
  return new MergedSegment(id, parts);
}
