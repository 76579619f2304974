/**
 * Times query cases: a few unmeasured warm-up rounds, then `repeats` rounds over all cases in
 * turn (so no case runs only against caches the previous repeat of itself warmed), then the
 * median, 90th and 99th percentile of the client-side wall time, beside the server's `took`.
 * With `stop`, rounds go on (past `repeats`) until it says so: timing queries while something
 * else, such as ingest into another index, keeps the service busy.
 */
import { HttpClient, jsonBody, median, percentile } from '../harness/index.js';
import type { QueryCase, QueryContext } from './query-case.js';

export interface QueryCaseResult {
  name: string;
  title: string;
  method: string;
  path: string;
  body?: string;
  samples: number;
  medianMs: number;
  p90Ms: number;
  p99Ms: number;
  minMs: number;
  maxMs: number;
  /** median of the server-reported `took` */
  tookMedianMs: number | null;
  targetMedianMs?: number;
  /** reported hits.total of the last answer */
  hitsTotal: number | null;
  /** undefined when every answer was right */
  problem?: string;
  errors: number;
}

export async function runQueryCases(
  client: HttpClient,
  cases: readonly QueryCase[],
  ctx: QueryContext,
  opts: { repeats: number; warmupRounds: number; stop?: () => boolean },
): Promise<QueryCaseResult[]> {
  const samples = cases.map(() => [] as number[]);
  const took = cases.map(() => [] as number[]);
  const problems: Array<string | undefined> = cases.map(() => undefined);
  const errors = cases.map(() => 0);
  const totals: Array<number | null> = cases.map(() => null);
  const requests = cases.map((c) => c.request(ctx));

  const more = (round: number) => (opts.stop ? !opts.stop() : round < opts.warmupRounds + opts.repeats);
  let lastRound = false;
  for (let round = 0; more(round); round++) {
    lastRound = !more(round + 1);
    for (let i = 0; i < cases.length; i++) {
      const res = await client.request(requests[i]!, 120_000);
      const measured = round >= opts.warmupRounds;
      if (res.status !== 200) {
        errors[i]!++;
        problems[i] ??= `status ${res.status}: ${res.body.subarray(0, 300).toString('utf8')}`;
        continue;
      }
      if (measured) samples[i]!.push(res.elapsedMs);
      // every answer is checked, but only the first problem is kept
      if (round === 0 || lastRound) {
        const body = jsonBody(res, cases[i]!.name);
        problems[i] ??= cases[i]!.check(body, ctx);
        const t = (body as { took?: unknown }).took;
        if (measured && typeof t === 'number') took[i]!.push(t);
        const total = (body as { hits?: { total?: { value?: number } | number } }).hits?.total;
        totals[i] = typeof total === 'number' ? total : (total?.value ?? null);
      } else if (measured) {
        const m = /"took":(\d+)/.exec(res.body.subarray(0, 40).toString('latin1'));
        if (m) took[i]!.push(Number(m[1]));
      }
    }
  }

  return cases.map((c, i) => {
    const s = samples[i]!;
    const req = requests[i]!;
    return {
      name: c.name,
      title: c.title,
      method: req.method,
      path: req.path,
      body: typeof req.body === 'string' ? req.body : req.body?.toString('utf8'),
      samples: s.length,
      medianMs: median(s),
      p90Ms: percentile(s, 90),
      p99Ms: percentile(s, 99),
      minMs: s.length ? Math.min(...s) : NaN,
      maxMs: s.length ? Math.max(...s) : NaN,
      tookMedianMs: took[i]!.length ? median(took[i]!) : null,
      targetMedianMs: c.targetMedianMs,
      hitsTotal: totals[i]!,
      problem: problems[i],
      errors: errors[i]!,
    };
  });
}
