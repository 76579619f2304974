/**
 * A search result in the flat form a query thread sends back: the hits' strings joined into one
 * string with their lengths, their numbers in one Float64Array. Copying a message between
 * threads costs per object and per property far more than per byte: a page of 100 hits as
 * objects took about 0.1 ms to copy, the same hits flat a few microseconds (the joined string
 * and the arrays are copied whole, and substrings of the joined string share its memory).
 */
import type { SearchHit, SearchResult } from '../search/types.js';

type SortValue = SearchHit['sortValues'][number];

export interface PackedResult {
  total: number;
  totalRelation: SearchResult['totalRelation'];
  maxScore: number | null;
  terminatedEarly: boolean;
  stats: SearchResult['stats'];
  /** whether the hits have scores (all of them or none: scoring is per request) */
  scored: boolean;
  /** each hit's index name, id and source, one after the other */
  text: string;
  /** the length of each of those strings: 3 per hit */
  lengths: Uint32Array;
  /** per hit: score, position (NaN when none), its number of sort values */
  heads: Float64Array;
  /** the hits' sort values one after the other; NaN where the value is in `otherSortValues` */
  sortNumbers: Float64Array;
  /** sort values that are not numbers (strings, null, NaN): at their index in `sortNumbers` */
  otherSortValues: Array<[number, SortValue]>;
}

const HEAD = 3;

export function packResult(result: SearchResult): PackedResult {
  const hits = result.hits;
  const n = hits.length;
  const lengths = new Uint32Array(n * 3);
  const heads = new Float64Array(n * HEAD);
  let sortCount = 0;
  for (const hit of hits) sortCount += hit.sortValues.length;
  const sortNumbers = new Float64Array(sortCount);
  const otherSortValues: Array<[number, SortValue]> = [];
  let text = '';
  let at = 0;
  for (let i = 0; i < n; i++) {
    const hit = hits[i]!;
    text += hit.index + hit.id + hit.source;
    lengths[3 * i] = hit.index.length;
    lengths[3 * i + 1] = hit.id.length;
    lengths[3 * i + 2] = hit.source.length;
    heads[HEAD * i] = hit.score ?? NaN;
    heads[HEAD * i + 1] = hit.position ?? NaN;
    heads[HEAD * i + 2] = hit.sortValues.length;
    for (const v of hit.sortValues) {
      if (typeof v === 'number' && !Number.isNaN(v)) sortNumbers[at] = v;
      else {
        sortNumbers[at] = NaN;
        otherSortValues.push([at, v]);
      }
      at++;
    }
  }
  return {
    total: result.total,
    totalRelation: result.totalRelation,
    maxScore: result.maxScore,
    terminatedEarly: result.terminatedEarly,
    stats: result.stats,
    scored: hits.some((h) => h.score !== null),
    text,
    lengths,
    heads,
    sortNumbers,
    otherSortValues,
  };
}

export function unpackResult(p: PackedResult): SearchResult {
  const n = p.lengths.length / 3;
  const others = new Map<number, SortValue>(p.otherSortValues);
  const hits: SearchHit[] = new Array<SearchHit>(n);
  let from = 0;
  let at = 0;
  for (let i = 0; i < n; i++) {
    const indexEnd = from + p.lengths[3 * i]!;
    const idEnd = indexEnd + p.lengths[3 * i + 1]!;
    const sourceEnd = idEnd + p.lengths[3 * i + 2]!;
    const position = p.heads[HEAD * i + 1]!;
    const sortCount = p.heads[HEAD * i + 2]!;
    const sortValues: SortValue[] = new Array<SortValue>(sortCount);
    for (let k = 0; k < sortCount; k++, at++) {
      const v = p.sortNumbers[at]!;
      sortValues[k] = Number.isNaN(v) ? others.get(at)! : v;
    }
    const hit: SearchHit = {
      index: p.text.slice(from, indexEnd),
      id: p.text.slice(indexEnd, idEnd),
      source: p.text.slice(idEnd, sourceEnd),
      score: p.scored ? p.heads[HEAD * i]! : null,
      sortValues,
    };
    if (!Number.isNaN(position)) hit.position = position;
    hits[i] = hit;
    from = sourceEnd;
  }
  const result: SearchResult = { total: p.total, totalRelation: p.totalRelation, maxScore: p.maxScore, hits, terminatedEarly: p.terminatedEarly };
  if (p.stats !== undefined) result.stats = p.stats;
  return result;
}
