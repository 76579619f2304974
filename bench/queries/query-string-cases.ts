/**
 * The query set in Lucene query-string form (`q=`, on `_line` by default), one case per
 * query shape the targets name. Words come from the corpus at known Zipf ranks.
 */
import type { QueryCase, QueryContext } from './query-case.js';
import { expectHitCount, expectNewest, expectTotal, firstProblem } from './checks.js';
import { NEWEST_COUNT, QUERY_RANKS } from '../corpus/index.js';

function search(ctx: QueryContext, params: Record<string, string>) {
  return { method: 'GET' as const, path: `/${encodeURIComponent(ctx.index)}/_search?${new URLSearchParams(params).toString()}` };
}

const pair = (p: readonly [string, string]) => `${p[0]} ${p[1]}`;

export const queryStringCases: readonly QueryCase[] = [
  {
    name: 'rare-word',
    title: `rare word (rank ${QUERY_RANKS.rare.toLocaleString('en')})`,
    targetMedianMs: 10,
    request: (ctx) => search(ctx, { q: ctx.words.rare }),
    check: (body, ctx) => {
      const df = ctx.expected.docFrequency[ctx.words.rare]!;
      return firstProblem(expectTotal(body, df), expectHitCount(body, Math.min(10, df)));
    },
  },
  {
    name: 'common-word-count',
    title: `exact count, common word (rank ${QUERY_RANKS.common})`,
    targetMedianMs: 30,
    request: (ctx) => search(ctx, { q: ctx.words.common, size: '0', track_total_hits: 'true' }),
    check: (body, ctx) => expectTotal(body, ctx.expected.docFrequency[ctx.words.common]!),
  },
  {
    name: 'two-word-and',
    title: `two common words, AND (ranks ${QUERY_RANKS.conjunction.join(', ')})`,
    targetMedianMs: 30,
    request: (ctx) => search(ctx, { q: `${ctx.words.conjunction[0]} AND ${ctx.words.conjunction[1]}` }),
    check: (body, ctx) => expectTotal(body, ctx.expected.conjunction[pair(ctx.words.conjunction)]!),
  },
  {
    name: 'phrase',
    title: 'phrase of two words often together',
    targetMedianMs: 60,
    request: (ctx) => search(ctx, { q: `"${pair(ctx.words.phrase)}"` }),
    check: (body, ctx) => expectTotal(body, ctx.expected.phrase[pair(ctx.words.phrase)]!),
  },
  {
    name: 'prefix-wildcard',
    title: 'prefix wildcard (a few hundred terms)',
    targetMedianMs: 60,
    request: (ctx) => search(ctx, { q: `${ctx.words.prefix}*` }),
    check: (body, ctx) => expectTotal(body, ctx.expected.prefixDocs[ctx.words.prefix]!),
  },
  {
    name: 'word-in-last-10pct',
    title: `word in the last 10 % of time (rank ${QUERY_RANKS.recent})`,
    targetMedianMs: 20,
    request: (ctx) => search(ctx, { q: `_ts:>=${ctx.words.recentFromMs} AND ${ctx.words.recent}` }),
    check: (body, ctx) => expectTotal(body, ctx.expected.recent[`${ctx.words.recent} @${ctx.words.recentFromMs}`]!),
  },
  {
    name: 'newest-100-common-word',
    title: `newest ${NEWEST_COUNT}, common word (rank ${QUERY_RANKS.newest})`,
    targetMedianMs: 20,
    request: (ctx) => search(ctx, { q: ctx.words.newest, size: String(NEWEST_COUNT) }),
    check: (body, ctx) =>
      firstProblem(expectTotal(body, ctx.expected.docFrequency[ctx.words.newest]!), expectNewest(body, ctx.expected.newestTs[ctx.words.newest]!)),
  },
];
