/**
 * top_hits: per parent bucket the best `from + size` docs by the requested sort (default: the
 * search default, `_ts` descending then newest doc first). Sort values come from columns; the
 * sources of the final winners only are read when the result is built.
 */
import { BadRequestError } from '../../../common/errors.js';
import { NO_BUCKET, maxParent, type Collector, type SegmentContext } from '../collector.js';
import { fieldValues } from '../field-values.js';
import { OBJECT_BYTES, REF_BYTES, grow } from '../memory.js';
import type { TopHitCandidate, TopHitsPartial } from '../partial.js';
import type { TopHitsSpec } from '../spec.js';

export const MAX_TOP_HITS_WINDOW = 100;

interface Key {
  desc: boolean;
  missingFirst: boolean;
  col: Float64Array | null;
  ords: Int32Array | null;
  terms: readonly string[];
  isDoc: boolean;
}

type Value = number | string | null;

const DEFAULT_SORT = [
  { field: '_ts', order: 'desc' as const },
  { field: '_doc', order: 'desc' as const },
];

export function candidateBytes(keys: number): number {
  return OBJECT_BYTES + REF_BYTES * (keys + 1) + 8 * keys;
}

/** Compares sort values key by key (missing values go last unless asked first), then doc position. */
export function compareCandidates(a: TopHitCandidate, b: TopHitCandidate, desc: readonly boolean[], missingFirst: readonly boolean[]): number {
  for (let k = 0; k < desc.length; k++) {
    const c = compareValues(a.values[k]!, b.values[k]!, desc[k]!, missingFirst[k]!);
    if (c !== 0) return c;
  }
  const pa = a.segmentOrder * 2 ** 32 + a.doc;
  const pb = b.segmentOrder * 2 ** 32 + b.doc;
  const c = pa < pb ? -1 : pa > pb ? 1 : 0;
  return desc[0] === true ? -c : c;
}

function compareValues(a: Value, b: Value, desc: boolean, missingFirst: boolean): number {
  if (a === null || b === null) {
    if (a === b) return 0;
    return (a === null) === missingFirst ? -1 : 1;
  }
  const c = a < b ? -1 : a > b ? 1 : 0;
  return desc ? -c : c;
}

export function sortDirections(spec: TopHitsSpec): { desc: boolean[]; missingFirst: boolean[] } {
  const sort = spec.sort.length === 0 ? DEFAULT_SORT : spec.sort.filter((s) => s.field !== '_score');
  return {
    desc: sort.map((s) => s.order === 'desc'),
    missingFirst: sort.map((s) => ('missing' in s && s.missing === '_first')),
  };
}

export class TopHitsCollector implements Collector {
  private readonly keys: Key[];
  private readonly desc: boolean[];
  private readonly missingFirst: boolean[];
  private readonly window: number;
  private readonly tops: Array<TopHitCandidate[] | undefined> = [];
  private totals = new Float64Array(0);

  constructor(
    private readonly spec: TopHitsSpec,
    private readonly ctx: SegmentContext,
  ) {
    this.window = spec.from + spec.size;
    if (this.window > MAX_TOP_HITS_WINDOW) {
      throw new BadRequestError(
        `Top hits result window is too large, the top hits aggregator [${spec.name}]'s from + size must be less than or equal to: [${MAX_TOP_HITS_WINDOW}] but was [${this.window}]. ` +
          'This limit can be set by changing the [index.max_inner_result_window] index level setting.',
      );
    }
    const sort = spec.sort.length === 0 ? DEFAULT_SORT : spec.sort.filter((s) => s.field !== '_score');
    ({ desc: this.desc, missingFirst: this.missingFirst } = sortDirections(spec));
    this.keys = sort.map((s, k): Key => {
      const key: Key = { desc: this.desc[k]!, missingFirst: this.missingFirst[k]!, col: null, ords: null, terms: [], isDoc: s.field === '_doc' };
      if (key.isDoc) return key;
      const fv = fieldValues(ctx.segment, ctx.index, s.field, ctx.limit, ctx.scope);
      if (fv.kind === 'numeric') key.col = fv.values;
      else if (fv.kind === 'ordinals') {
        key.ords = fv.ords;
        key.terms = fv.terms;
      }
      return key;
    });
  }

  private valueOf(key: Key, doc: number): Value {
    if (key.isDoc) return this.ctx.segmentOrder * 2 ** 32 + doc;
    if (key.col !== null) {
      const v = key.col[doc]!;
      return v === v ? v : null;
    }
    if (key.ords !== null) {
      const o = key.ords[doc]!;
      return o < 0 ? null : key.terms[o]!;
    }
    return null;
  }

  /** < 0 when doc sorts before the candidate */
  private compareDoc(doc: number, c: TopHitCandidate): number {
    for (let k = 0; k < this.keys.length; k++) {
      const key = this.keys[k]!;
      const r = compareValues(this.valueOf(key, doc), c.values[k]!, key.desc, key.missingFirst);
      if (r !== 0) return r;
    }
    const pa = this.ctx.segmentOrder * 2 ** 32 + doc;
    const pb = c.segmentOrder * 2 ** 32 + c.doc;
    const r = pa < pb ? -1 : pa > pb ? 1 : 0;
    return this.desc[0] === true ? -r : r;
  }

  collect(docs: Uint32Array, parents: Int32Array | null, n: number): void {
    const window = this.window;
    this.totals = grow(this.totals, maxParent(parents, n) + 1, this.ctx.scope, this.spec.name);
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      const p = parents === null ? 0 : parents[i]!;
      this.totals[p]! += 1;
      if (window === 0) continue;
      let top = this.tops[p];
      if (top === undefined) {
        this.ctx.scope.charge(OBJECT_BYTES + REF_BYTES * Math.max(1, p + 1 - this.tops.length), this.spec.name);
        top = [];
        this.tops[p] = top;
      }
      if (top.length === window && this.compareDoc(doc, top[window - 1]!) >= 0) continue;
      let at = top.length;
      while (at > 0 && this.compareDoc(doc, top[at - 1]!) < 0) at--;
      const candidate: TopHitCandidate = {
        index: this.ctx.index,
        segment: this.ctx.segment,
        doc,
        segmentOrder: this.ctx.segmentOrder,
        values: this.keys.map((k) => this.valueOf(k, doc)),
      };
      if (top.length === window) top.pop();
      else this.ctx.scope.charge(candidateBytes(this.keys.length), this.spec.name);
      top.splice(at, 0, candidate);
    }
  }

  result(parent: number): TopHitsPartial {
    const hits = parent === NO_BUCKET ? [] : (this.tops[parent] ?? []);
    const ownBytes = OBJECT_BYTES + hits.length * candidateBytes(this.keys.length);
    this.ctx.memory.charge(ownBytes, this.spec.name);
    return { kind: 'top_hits', total: parent === NO_BUCKET || parent >= this.totals.length ? 0 : this.totals[parent]!, hits: hits.slice(), ownBytes };
  }
}
