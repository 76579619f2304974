/**
 * The same query set as Query DSL bodies (`POST /{index}/_search`), checked against the same
 * tally, so that their medians sit next to the `q=` forms; then one `_msearch` of ten queries.
 */
import type { HttpRequest } from '../harness/index.js';
import type { QueryCase, QueryContext } from './query-case.js';
import { queryStringCases } from './query-string-cases.js';
import { NEWEST_COUNT } from '../corpus/index.js';

type Body = Record<string, unknown>;

const match = (word: string) => ({ match: { _line: word } });

/** DSL body of each `q=` case, by case name. */
const DSL_BODIES: Record<string, (ctx: QueryContext) => Body> = {
  'rare-word': (ctx) => ({ query: match(ctx.words.rare) }),
  'common-word-count': (ctx) => ({ size: 0, track_total_hits: true, query: match(ctx.words.common) }),
  'two-word-and': (ctx) => ({ query: { bool: { must: [match(ctx.words.conjunction[0]), match(ctx.words.conjunction[1])] } } }),
  phrase: (ctx) => ({ query: { match_phrase: { _line: `${ctx.words.phrase[0]} ${ctx.words.phrase[1]}` } } }),
  'prefix-wildcard': (ctx) => ({ query: { prefix: { _line: ctx.words.prefix } } }),
  'word-in-last-10pct': (ctx) => ({
    query: { bool: { filter: [{ range: { _ts: { gte: ctx.words.recentFromMs, format: 'epoch_millis' } } }], must: [match(ctx.words.recent)] } },
  }),
  'newest-100-common-word': (ctx) => ({ size: NEWEST_COUNT, query: match(ctx.words.newest) }),
};

function post(path: string, body: string, contentType = 'application/json'): HttpRequest {
  return { method: 'POST', path, body, contentType };
}

export const dslCases: readonly QueryCase[] = queryStringCases.map((c) => ({
  name: `dsl-${c.name}`,
  title: `DSL: ${c.title}`,
  ...(c.targetMedianMs !== undefined ? { targetMedianMs: c.targetMedianMs } : {}),
  request: (ctx: QueryContext) => post(`/${encodeURIComponent(ctx.index)}/_search`, JSON.stringify(DSL_BODIES[c.name]!(ctx))),
  check: c.check,
}));

/** Ten searches in one `_msearch`: the seven DSL queries and three of them again with other sizes. */
export const msearchCase: QueryCase = {
  name: 'msearch-10',
  title: '_msearch of ten queries',
  request: (ctx) => {
    const lines: string[] = [];
    for (const body of msearchBodies(ctx)) lines.push(JSON.stringify({ index: ctx.index }), JSON.stringify(body));
    return post('/_msearch', lines.join('\n') + '\n', 'application/x-ndjson');
  },
  check: (body, ctx) => {
    const responses = (body as { responses?: unknown[] }).responses;
    if (!Array.isArray(responses) || responses.length !== 10) return `expected 10 responses, got ${Array.isArray(responses) ? responses.length : 'none'}`;
    for (let i = 0; i < queryStringCases.length; i++) {
      const problem = queryStringCases[i]!.check(responses[i], ctx);
      if (problem) return `response ${i}: ${problem}`;
    }
    return undefined;
  },
};

function msearchBodies(ctx: QueryContext): Body[] {
  const bodies = queryStringCases.map((c) => DSL_BODIES[c.name]!(ctx));
  bodies.push({ size: 0, query: match(ctx.words.rare) }, { size: 5, query: match(ctx.words.common) }, { size: 1, query: { match_all: {} } });
  return bodies;
}
