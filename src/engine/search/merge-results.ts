/**
 * Merges the results of one search run in parts (segment files on a query thread, memtables on
 * the main thread): hits in the order a single run would give them, totals added up. Each part
 * must have collected `from + size` hits with `from = 0`.
 */
import { compareSortValues, effectiveSort } from './sort-keys.js';
import type { SearchHit, SearchRequest, SearchResult } from './types.js';

export function mergeSearchResults(parts: readonly SearchResult[], request: SearchRequest): SearchResult {
  const keys = effectiveSort(request.sort);
  const descending = keys[0]?.order === 'desc';
  const hits: SearchHit[] = [];
  let count = 0;
  let exact = true;
  let maxScore: number | null = null;
  let terminatedEarly = false;
  let searched = 0;
  let skipped = 0;
  for (const part of parts) {
    hits.push(...part.hits);
    count += part.total;
    if (part.totalRelation === 'gte') exact = false;
    if (part.maxScore !== null) maxScore = maxScore === null ? part.maxScore : Math.max(maxScore, part.maxScore);
    terminatedEarly ||= part.terminatedEarly;
    searched += part.stats?.segmentsSearched ?? 0;
    skipped += part.stats?.segmentsSkipped ?? 0;
  }
  hits.sort((a, b) => {
    for (let k = 0; k < keys.length; k++) {
      const c = compareSortValues(a.sortValues[k] ?? null, b.sortValues[k] ?? null, keys[k]!);
      if (c !== 0) return c;
    }
    const c = (a.position ?? 0) - (b.position ?? 0);
    return descending ? -c : c;
  });
  const track = request.trackTotalHits;
  const capped = typeof track === 'number' && count > track;
  return {
    total: capped ? track : count,
    totalRelation: capped || !exact ? 'gte' : 'eq',
    maxScore,
    hits: hits.slice(request.from, request.from + request.size),
    terminatedEarly,
    stats: { segmentsSearched: searched, segmentsSkipped: skipped },
  };
}
