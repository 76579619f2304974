/**
 * Sort keys: the effective sort of a request, their binding to one segment's columns (compared
 * as plain numbers: column values, keyword ordinals, scores, doc positions) and the comparison
 * of emitted sort values across segments.
 *
 * Ties are broken by doc position, (segment order, doc id), in the direction of the first key:
 * newest first under the default `_ts` descending sort, and within equal `_ts`.
 */
import { BadRequestError } from '../../common/errors.js';
import type { SegmentReader } from '../segment-reader.js';
import { resolveFieldName } from './field-names.js';
import { toDate } from './value-parse.js';
import type { SortKey, SortOrder } from './types.js';

export interface EffectiveSortKey {
  field: string;
  order: SortOrder;
  missingFirst: boolean;
}

export type SortValue = number | string | null;

export const DEFAULT_SORT: readonly SortKey[] = [
  { field: '_ts', order: 'desc' },
  { field: '_doc', order: 'desc' },
];

/** Doc positions across segments: segment order in the high part, doc id in the low 32 bits. */
export const SEGMENT_STRIDE = 2 ** 32;

export function effectiveSort(sort: readonly SortKey[]): EffectiveSortKey[] {
  const keys = sort.length === 0 ? DEFAULT_SORT : sort;
  return keys.map((k) => ({ field: k.field, order: k.order, missingFirst: k.missing === '_first' }));
}

/** The keys compared, with the hidden doc-position tie-breaker appended. */
export function comparisonKeys(keys: readonly EffectiveSortKey[]): EffectiveSortKey[] {
  if (keys.some((k) => k.field === '_doc')) return [...keys];
  return [...keys, { field: '_doc', order: keys[0]?.order ?? 'asc', missingFirst: false }];
}

type CmpKind = 'col' | 'ord' | 'doc' | 'score' | 'id_hi' | 'id_lo' | 'null';

export interface CmpKey {
  kind: CmpKind;
  /** the column's field, for kind 'col' */
  field: string;
  desc: boolean;
  missingFirst: boolean;
  col: Float64Array | null;
  ords: Int32Array | null;
  terms: readonly string[] | null;
  words: Uint32Array | null;
  wordAt: number;
  /** index of the effective key this comparison key belongs to (the hidden one: -1) */
  key: number;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function textSortError(field: string): BadRequestError {
  return new BadRequestError(
    `Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead [${field}]`,
  );
}

/**
 * One segment's view of the sort: values normalized so that smaller sorts first (descending
 * keys negated, missing values at +/-Infinity), read straight from columns by match index.
 */
export class SegmentSort {
  readonly keys: CmpKey[];
  /** true when ties end in descending doc order (a later match wins a tie) */
  readonly docOrderDescending: boolean;
  private readonly base: number;
  private ids: BigUint64Array | null = null;
  private columns: Float64Array[] | null = null;

  constructor(
    readonly effective: readonly EffectiveSortKey[],
    private readonly segment: SegmentReader,
    segmentOrder: number,
    /** the segment's matching docs, ascending */
    private readonly docs: Uint32Array,
    private readonly scores: Float64Array | null,
  ) {
    this.base = segmentOrder * SEGMENT_STRIDE;
    this.keys = [];
    const cmp = comparisonKeys(effective);
    cmp.forEach((k, index) => this.bind(k, index < effective.length ? index : -1));
    this.docOrderDescending = cmp.find((k) => k.field === '_doc')!.order === 'desc';
  }

  private bind(k: EffectiveSortKey, key: number): void {
    const make = (kind: CmpKind, extra: Partial<CmpKey> = {}): CmpKey => ({
      kind,
      field: k.field,
      desc: k.order === 'desc',
      missingFirst: k.missingFirst,
      col: null,
      ords: null,
      terms: null,
      words: null,
      wordAt: 0,
      key,
      ...extra,
    });
    const seg = this.segment;
    switch (k.field) {
      case '_doc':
        this.keys.push(make('doc'));
        return;
      case '_score':
        this.keys.push(make('score'));
        return;
      case '_ts':
      case '_lid':
        this.keys.push(make('col', { col: seg.numeric(k.field) }));
        return;
      case '_id': {
        const ids = seg.ids();
        const words = new Uint32Array(ids.buffer, ids.byteOffset, ids.length * 2);
        this.keys.push(make('id_hi', { words, wordAt: LITTLE_ENDIAN ? 1 : 0 }));
        this.keys.push(make('id_lo', { words, wordAt: LITTLE_ENDIAN ? 0 : 1 }));
        return;
      }
    }
    const field = resolveFieldName(seg, k.field);
    const type = seg.fieldType(field);
    if (type === 'text') throw textSortError(field);
    if (type === 'keyword') {
      const column = seg.ordinals(field);
      if (column !== null) {
        this.keys.push(make('ord', { ords: column.ords, terms: column.terms }));
        return;
      }
    } else if (type !== undefined) {
      const col = seg.numeric(field);
      if (col !== null) {
        this.keys.push(make('col', { col, field }));
        return;
      }
    }
    this.keys.push(make('null'));
  }

  /** The raw (un-normalized) value of key `k` for match `i`; NaN when missing. */
  private raw(k: CmpKey, i: number): number {
    const doc = this.docs[i]!;
    switch (k.kind) {
      case 'col':
        return k.col![doc]!;
      case 'ord': {
        const o = k.ords![doc]!;
        return o < 0 ? NaN : o;
      }
      case 'doc':
        return this.base + doc;
      case 'score':
        return this.scores![i]!;
      case 'id_hi':
      case 'id_lo':
        return k.words![2 * doc + k.wordAt]!;
      case 'null':
        // a segment without the field: every doc is missing it, placed as `missing` says
        return NaN;
    }
  }

  /** The numeric column the first key sorts on, or null when it sorts on something else. */
  primaryColumn(): string | null {
    const k = this.keys[0]!;
    return k.kind === 'col' ? k.field : null;
  }

  private normalize(k: CmpKey, v: number): number {
    if (Number.isNaN(v)) return k.missingFirst ? -Infinity : Infinity;
    return k.desc ? -v : v;
  }

  value(k: CmpKey, i: number): number {
    return this.normalize(k, this.raw(k, i));
  }

  /**
   * Reads every key of every match once into flat arrays, so that the many comparisons of a
   * top-k over a large match set are plain array reads.
   */
  materialize(): void {
    const n = this.docs.length;
    this.columns = this.keys.map((k) => {
      const col = new Float64Array(n);
      for (let i = 0; i < n; i++) col[i] = this.value(k, i);
      return col;
    });
  }

  /** Negative when match `i` sorts before match `j`. */
  compare(i: number, j: number): number {
    const columns = this.columns;
    if (columns !== null) {
      for (let c = 0; c < columns.length; c++) {
        const col = columns[c]!;
        const a = col[i]!;
        const b = col[j]!;
        if (a !== b) return a < b ? -1 : 1;
      }
      return 0;
    }
    for (const k of this.keys) {
      const a = this.value(k, i);
      const b = this.value(k, j);
      if (a !== b) return a < b ? -1 : 1;
    }
    return 0;
  }

  /** `search_after` values in this segment's normalized space, one per comparison key (hidden: NaN). */
  afterValues(after: readonly unknown[]): Float64Array {
    const out = new Float64Array(this.keys.length).fill(NaN);
    this.keys.forEach((k, c) => {
      if (k.key < 0) return;
      const v = after[k.key];
      const field = this.effective[k.key]!.field;
      out[c] = this.normalize(k, this.afterRaw(k, v, field));
    });
    return out;
  }

  private afterRaw(k: CmpKey, v: unknown, field: string): number {
    if (v === null || v === undefined) return NaN;
    switch (k.kind) {
      case 'null':
        return 0;
      case 'ord': {
        const s = String(v);
        const terms = k.terms!;
        let lo = 0;
        let hi = terms.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (terms[mid]! < s) lo = mid + 1;
          else hi = mid;
        }
        // a value between two terms sits between their ordinals
        return terms[lo] === s ? lo : lo - 0.5;
      }
      case 'id_hi':
      case 'id_lo': {
        const id = parseId(v, field);
        return k.kind === 'id_hi' ? Number(id >> 32n) : Number(id & 0xffffffffn);
      }
      default: {
        if (typeof v === 'number') return v;
        if (typeof v === 'boolean') return v ? 1 : 0;
        if (typeof v === 'string') {
          const n = Number(v);
          if (v.trim() !== '' && Number.isFinite(n)) return n;
          if (k.kind === 'col') return toDate(v, { nowMs: Date.now() }, false);
        }
        throw new BadRequestError(`search_after value [${String(v)}] does not fit the sort on [${field}]`);
      }
    }
  }

  /** True when match `i` sorts strictly after the `search_after` position. */
  isAfter(i: number, after: Float64Array): boolean {
    for (let c = 0; c < this.keys.length; c++) {
      const a = after[c]!;
      if (Number.isNaN(a)) continue;
      const v = this.value(this.keys[c]!, i);
      if (v !== a) return v > a;
    }
    return false;
  }

  /** The emitted sort values of match `i`: numbers, keyword strings, `_id` as a decimal string. */
  sortValues(i: number): SortValue[] {
    const out: SortValue[] = [];
    const doc = this.docs[i]!;
    for (const k of this.keys) {
      if (k.key < 0 || k.kind === 'id_lo') continue;
      switch (k.kind) {
        case 'ord': {
          const o = k.ords![doc]!;
          out.push(o < 0 ? null : k.terms![o]!);
          break;
        }
        case 'id_hi':
          if (this.ids === null) this.ids = this.segment.ids();
          out.push(this.ids[doc]!.toString());
          break;
        case 'null':
          out.push(null);
          break;
        default: {
          const v = this.raw(k, i);
          out.push(Number.isNaN(v) ? null : v);
        }
      }
    }
    return out;
  }
}

function parseId(v: unknown, field: string): bigint {
  const s = String(v).trim();
  if (!/^\d{1,20}$/.test(s)) throw new BadRequestError(`search_after value [${s}] does not fit the sort on [${field}]`);
  return BigInt(s);
}

function compareDecimal(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares emitted sort values of one key across segments. */
export function compareSortValues(a: SortValue, b: SortValue, key: EffectiveSortKey): number {
  if (a === b) return 0;
  if (a === null) return key.missingFirst ? -1 : 1;
  if (b === null) return key.missingFirst ? 1 : -1;
  let c: number;
  if (typeof a !== typeof b) c = typeof a === 'number' ? -1 : 1;
  else if (key.field === '_id') c = compareDecimal(String(a), String(b));
  else c = a < b ? -1 : a > b ? 1 : 0;
  return key.order === 'desc' ? -c : c;
}
