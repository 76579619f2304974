/**
 * Counts (`size=0&track_total_hits=true`), the form in which engines are compared on the
 * selective queries, and a search that matches nothing: its latency is the fixed cost of a
 * request (HTTP, routing, authorization, query parsing, dispatch to the query threads and back,
 * rendering), which every other query pays on top of its own work.
 */
import type { QueryCase, QueryContext } from './query-case.js';
import { expectHitCount, expectTotal, firstProblem } from './checks.js';
import { ABSENT_WORD, STATUS_AT_LEAST } from '../corpus/index.js';

function count(ctx: QueryContext, q: string) {
  const params = new URLSearchParams({ q, size: '0', track_total_hits: 'true' });
  return { method: 'GET' as const, path: `/${encodeURIComponent(ctx.index)}/_search?${params.toString()}` };
}

export const countCases: readonly QueryCase[] = [
  {
    name: 'match-nothing',
    title: 'a word no document holds (fixed cost)',
    request: (ctx) => ({ method: 'GET', path: `/${encodeURIComponent(ctx.index)}/_search?q=${ABSENT_WORD}` }),
    check: (body) => firstProblem(expectTotal(body, 0), expectHitCount(body, 0)),
  },
  {
    name: 'rare-word-count',
    title: 'count: rare word',
    request: (ctx) => count(ctx, ctx.words.rare),
    check: (body, ctx) => expectTotal(body, ctx.expected.docFrequency[ctx.words.rare]!),
  },
  {
    name: 'two-word-and-count',
    title: 'count: two common words, AND',
    request: (ctx) => count(ctx, `${ctx.words.conjunction[0]} AND ${ctx.words.conjunction[1]}`),
    check: (body, ctx) => expectTotal(body, ctx.expected.conjunction[`${ctx.words.conjunction[0]} ${ctx.words.conjunction[1]}`]!),
  },
  {
    name: 'rare-and-common-count',
    title: 'count: rare word AND common word',
    request: (ctx) => count(ctx, `${ctx.words.rare} AND ${ctx.words.common}`),
    check: (body, ctx) => expectTotal(body, ctx.expected.conjunction[`${ctx.words.rare} ${ctx.words.common}`]!),
  },
  {
    name: 'phrase-count',
    title: 'count: phrase',
    request: (ctx) => count(ctx, `"${ctx.words.phrase[0]} ${ctx.words.phrase[1]}"`),
    check: (body, ctx) => expectTotal(body, ctx.expected.phrase[`${ctx.words.phrase[0]} ${ctx.words.phrase[1]}`]!),
  },
  {
    name: 'status-range-count',
    title: `count: numeric range status:>=${STATUS_AT_LEAST}`,
    request: (ctx) => count(ctx, `status:>=${STATUS_AT_LEAST}`),
    check: (body, ctx) => expectTotal(body, ctx.expected.statusAtLeast[String(STATUS_AT_LEAST)]!),
  },
];
