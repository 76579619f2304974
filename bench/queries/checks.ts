/**
 * Answer checks shared by query cases: total hit counts against the tally, and the `_ts` of
 * returned hits against the newest documents known to match.
 */

interface SearchAnswer {
  hits?: {
    total?: { value?: number; relation?: string } | number;
    hits?: Array<{ _source?: { _ts?: unknown } }>;
  };
}

/** `hits.total` as reported: exact ("eq") or a lower bound ("gte") */
export function reportedTotal(body: unknown): { value: number; exact: boolean } | undefined {
  const total = (body as SearchAnswer).hits?.total;
  if (typeof total === 'number') return { value: total, exact: true };
  if (total && typeof total.value === 'number') return { value: total.value, exact: total.relation !== 'gte' };
  return undefined;
}

export function expectTotal(body: unknown, expected: number): string | undefined {
  const total = reportedTotal(body);
  if (!total) return 'no hits.total in the answer';
  if (total.exact && total.value !== expected) return `hits.total ${total.value}, expected ${expected}`;
  if (!total.exact && total.value > expected) return `hits.total at least ${total.value}, but only ${expected} documents match`;
  return undefined;
}

export function expectHitCount(body: unknown, expected: number): string | undefined {
  const n = (body as SearchAnswer).hits?.hits?.length;
  if (n !== expected) return `${n ?? 'no'} hits returned, expected ${expected}`;
  return undefined;
}

/** the returned hits' `_ts`, in order, must be exactly the expected newest-first list */
export function expectNewest(body: unknown, newestTs: readonly number[]): string | undefined {
  const hits = (body as SearchAnswer).hits?.hits ?? [];
  if (hits.length !== newestTs.length) return `${hits.length} hits returned, expected ${newestTs.length}`;
  for (let i = 0; i < hits.length; i++) {
    const ts = hits[i]!._source?._ts;
    if (ts !== newestTs[i]) return `hit ${i} has _ts ${String(ts)}, expected ${newestTs[i]} (newest first)`;
  }
  return undefined;
}

export function firstProblem(...problems: Array<string | undefined>): string | undefined {
  return problems.find((p) => p !== undefined);
}
