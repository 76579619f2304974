/**
 * Fuzzing over HTTP with fast-check: query strings, Query DSL bodies, aggregation bodies, bulk
 * bodies and request headers, each generated from a grammar of what clients send and then
 * mutated (random text in random places, junk JSON values, cut lines). Whatever comes in, the
 * answer must be well formed: no 5xx but the documented 504 of a query timeout, a JSON body,
 * and the Elasticsearch error shape (`error.type`, `error.reason`, `status`) on every 4xx.
 */
import fc from 'fast-check';

export type FuzzKind = 'query_string' | 'query_dsl' | 'aggregations' | 'bulk' | 'headers';
export const FUZZ_KINDS: readonly FuzzKind[] = ['query_string', 'query_dsl', 'aggregations', 'bulk', 'headers'];

/** The index the fuzzers search and write; `seedFuzzIndex` fills it with a few documents. */
export const FUZZ_INDEX = 'fuzz';

export interface FuzzRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers: Record<string, string>;
}

const FIELDS = ['_line', 'level', 'status', 'latency_ms', 'host', '_ts', 'user.name', 'missing_field', '*', '_id', '_index'];
const WORDS = ['error', 'timeout', 'alice', 'GET', '/api/v1', '500', 'connection', 'refused', 'héllo', '日本', '0', '-1', '1e309', 'null'];

const word = fc.oneof(fc.constantFrom(...WORDS), fc.string({ minLength: 1, maxLength: 8 }));
const field = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FIELDS) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });
const number = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.double({ noNaN: false }), fc.constantFrom(Number.MAX_SAFE_INTEGER, 1e300, -0));
const scalar = fc.oneof(word, number, fc.boolean(), fc.constant(null));
/** fields an aggregation can run on, most of the time, and any field now and then */
const aggField = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('level', 'status', 'latency_ms', 'host', '_ts', 'user.name') }, { weight: 1, arbitrary: field });

/** Text with some of `text`'s characters replaced, dropped or doubled, and random text put in. */
function mutated(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(text, fc.array(fc.tuple(fc.nat(), fc.constantFrom('drop', 'insert', 'double'), fc.string({ maxLength: 3 })), { maxLength: 4 })).map(([t, edits]) => {
    let s = t;
    for (const [at, kind, extra] of edits) {
      const i = s.length === 0 ? 0 : at % s.length;
      if (kind === 'drop') s = s.slice(0, i) + s.slice(i + 1);
      else if (kind === 'insert') s = s.slice(0, i) + extra + s.slice(i);
      else s = s.slice(0, i) + s.slice(i, i + 1) + s.slice(i);
    }
    return s;
  });
}

/** The query-string syntax: terms, fields, ranges, wildcards, phrases, booleans, groups. */
const queryStringGrammar: fc.Arbitrary<string> = fc.letrec<{ q: string }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    word,
    fc.tuple(field, word).map(([f, w]) => `${f}:${w}`),
    fc.tuple(field, fc.constantFrom('>', '>=', '<', '<='), number).map(([f, op, n]) => `${f}:${op}${n}`),
    fc.tuple(field, fc.constantFrom('[', '{'), scalar, scalar, fc.constantFrom(']', '}')).map(([f, a, x, y, b]) => `${f}:${a}${String(x)} TO ${String(y)}${b}`),
    fc.tuple(word, fc.constantFrom('*', '?', '*?*')).map(([w, c]) => `${w}${c}`),
    fc.array(word, { minLength: 1, maxLength: 4 }).map((ws) => `"${ws.join(' ')}"`),
    fc.tuple(tie('q'), fc.constantFrom(' AND ', ' OR ', ' && ', ' || ', ' '), tie('q')).map(([a, op, b]) => `${a}${op}${b}`),
    tie('q').map((q) => `NOT ${q}`),
    tie('q').map((q) => `-${q}`),
    tie('q').map((q) => `(${q})`),
    field.map((f) => `_exists_:${f}`),
  ),
})).q;

const queryString = fc.oneof({ weight: 3, arbitrary: queryStringGrammar }, { weight: 2, arbitrary: mutated(queryStringGrammar) }, { weight: 1, arbitrary: fc.string({ maxLength: 40 }) });

/** Query DSL clauses, nested through bool, with junk values in random places. */
const dslQuery: fc.Arbitrary<unknown> = fc.letrec<{ q: unknown }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant({ match_all: {} }),
    fc.constant({ match_none: {} }),
    fc.tuple(field, scalar).map(([f, v]) => ({ term: { [f]: v } })),
    fc.tuple(field, fc.array(scalar, { maxLength: 4 })).map(([f, vs]) => ({ terms: { [f]: vs } })),
    fc.tuple(field, word, fc.constantFrom('or', 'and', 'xor')).map(([f, t, op]) => ({ match: { [f]: { query: t, operator: op } } })),
    fc.tuple(field, fc.array(word, { minLength: 1, maxLength: 3 })).map(([f, ws]) => ({ match_phrase: { [f]: ws.join(' ') } })),
    fc.tuple(field, fc.record({ gte: scalar, lt: scalar, format: fc.constantFrom('epoch_millis', 'strict_date_optional_time', 'bogus') }, { requiredKeys: [] })).map(([f, r]) => ({ range: { [f]: r } })),
    field.map((f) => ({ exists: { field: f } })),
    fc.tuple(field, word).map(([f, w]) => ({ wildcard: { [f]: `${w}*` } })),
    fc.tuple(field, word).map(([f, w]) => ({ prefix: { [f]: w } })),
    queryString.map((q) => ({ query_string: { query: q } })),
    fc
      .record(
        {
          must: fc.array(tie('q'), { maxLength: 3 }),
          should: fc.array(tie('q'), { maxLength: 3 }),
          filter: fc.oneof(tie('q'), fc.array(tie('q'), { maxLength: 2 })),
          must_not: fc.array(tie('q'), { maxLength: 2 }),
          minimum_should_match: fc.oneof(fc.integer({ min: -3, max: 5 }), fc.constantFrom('50%', '-1', 'x')),
        },
        { requiredKeys: [] },
      )
      .map((b) => ({ bool: b })),
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  ),
})).q;

/** Search bodies as clients send them, and (one in four) with odd values and unknown keys. */
const searchBody = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(
      {
        query: dslQuery,
        size: fc.integer({ min: 0, max: 50 }),
        sort: fc.constantFrom([{ _ts: 'desc' }], ['_doc'], [{ status: { order: 'asc' } }], ['_score']),
        track_total_hits: fc.boolean(),
      },
      { requiredKeys: ['query'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        query: dslQuery,
        size: fc.oneof(fc.integer({ min: -5, max: 20_000 }), scalar),
        from: fc.oneof(fc.integer({ min: -5, max: 20_000 }), scalar),
        sort: fc.array(fc.oneof(field, fc.tuple(field, fc.constantFrom('asc', 'desc', 'sideways')).map(([f, o]) => ({ [f]: { order: o } }))), { maxLength: 2 }),
        track_total_hits: fc.oneof(fc.boolean(), fc.integer({ min: -1, max: 100 })),
        _source: fc.oneof(fc.boolean(), fc.array(field, { maxLength: 2 })),
        junk_key: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: ['query'] },
    ),
  },
);

/** Aggregation bodies: metrics and buckets with random parameters, nested once or twice. */
const aggregation: fc.Arbitrary<unknown> = fc.letrec<{ a: unknown }>((tie) => ({
  a: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.constantFrom('avg', 'sum', 'min', 'max', 'cardinality', 'value_count', 'stats', 'extended_stats', 'percentiles'), aggField).map(([kind, f]) => ({ [kind]: { field: f } })),
    fc.tuple(aggField, fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 20 }) }, { weight: 1, arbitrary: fc.oneof(fc.integer({ min: -2, max: 70_000 }), scalar) }), fc.option(tie('a'))).map(([f, size, sub]) => ({
      terms: { field: f, size },
      ...(sub ? { aggs: { inner: sub } } : {}),
    })),
    fc.tuple(aggField, fc.oneof({ weight: 4, arbitrary: fc.constantFrom('1m', '1h', '1d', '30s') }, { weight: 1, arbitrary: fc.constantFrom('month', '0s', '-1m', 'bogus') }), fc.option(tie('a'))).map(([f, interval, sub]) => ({
      date_histogram: { field: f, fixed_interval: interval, min_doc_count: 0 },
      ...(sub ? { aggs: { inner: sub } } : {}),
    })),
    fc.tuple(aggField, fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 1000 }) }, { weight: 1, arbitrary: fc.oneof(number, fc.constant(0)) })).map(([f, interval]) => ({ histogram: { field: f, interval } })),
    fc.tuple(aggField, fc.array(fc.record({ from: scalar, to: scalar }, { requiredKeys: [] }), { maxLength: 3 })).map(([f, ranges]) => ({ range: { field: f, ranges } })),
    fc.dictionary(fc.string({ maxLength: 4 }), dslQuery, { maxKeys: 2 }).map((filters) => ({ filters: { filters } })),
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  ),
})).a;

const aggName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('a', 'by_level', 'over_time', 'p') }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) });
const aggsBody = fc.record({ size: fc.constantFrom(0, 1), aggs: fc.dictionary(aggName, aggregation, { minKeys: 1, maxKeys: 3 }) });

/**
 * Bulk bodies: action and document pairs (documents of every JSON shape, values of every type),
 * with now and then a broken action, a cut document or a stray line, and odd line endings.
 */
const bulkDoc = fc.oneof(
  { weight: 4, arbitrary: fc.record({ _line: word, level: scalar, status: scalar, 'user.name': word, _ts: fc.oneof(number, word) }, { requiredKeys: [] }).map((d) => JSON.stringify(d)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: mutated(fc.constant('{"_line":"cut here","status":500}')) },
);
const bulkAction = fc.oneof(
  { weight: 6, arbitrary: fc.constant(`{"index":{"_index":"${FUZZ_INDEX}"}}`) },
  { weight: 1, arbitrary: fc.constantFrom(`{"create":{"_index":"${FUZZ_INDEX}"}}`, '{"index":{"_index":"FUZZ BAD"}}', '{"index":{"_index":"_x"}}', '{"delete":{"_index":"fuzz","_id":"1"}}', '{"update":{"_index":"fuzz","_id":"1"}}') },
  { weight: 1, arbitrary: fc.constantFrom('{"bogus":{}}', '{}', '[]', '{"index":', '') },
);
const bulkBody = fc
  .tuple(fc.array(fc.tuple(bulkAction, bulkDoc), { maxLength: 8 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([pairs, eol, trailing]) => pairs.flat().join(eol) + (trailing ? eol : ''));

/** Headers a client (or an attacker) might send with an ordinary search. */
const headerSet = fc.record(
  {
    'content-type': fc.oneof(fc.constantFrom('application/json', 'application/x-ndjson', 'text/plain', 'application/json; charset=latin1', 'application/vnd.elasticsearch+json; compatible-with=7', 'multipart/form-data; boundary=x', ''), fc.string({ maxLength: 20 })),
    authorization: fc.oneof(fc.constantFrom('Basic Zm9vOmJhcg==', 'Bearer a.b.c', 'ApiKey !!!', 'Basic', 'Negotiate x'), fc.string({ maxLength: 30 })),
    accept: fc.oneof(fc.constantFrom('application/json', '*/*', 'text/html', 'application/cbor'), fc.string({ maxLength: 10 })),
    'x-opaque-id': fc.string({ maxLength: 40 }),
    'content-encoding': fc.constantFrom('gzip', 'deflate', 'identity', 'br', 'bogus'),
  },
  { requiredKeys: [] },
).map((h) => {
  // a header value the HTTP client itself refuses (control characters) is not a request at all
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (/^[\t\x20-\x7e]*$/.test(v)) out[k] = v;
  return out;
});

export function fuzzRequests(kind: FuzzKind): fc.Arbitrary<FuzzRequest> {
  const json = { 'content-type': 'application/json' };
  switch (kind) {
    case 'query_string':
      return fc.tuple(queryString, fc.constantFrom('_search', '_count')).map(([q, endpoint]) => ({ method: 'GET', path: `/${FUZZ_INDEX}/${endpoint}?q=${encodeURIComponent(q)}`, headers: {} }));
    case 'query_dsl':
      return searchBody.map((b) => ({ method: 'POST', path: `/${FUZZ_INDEX}/_search`, body: JSON.stringify(b), headers: json }));
    case 'aggregations':
      return aggsBody.map((b) => ({ method: 'POST', path: `/${FUZZ_INDEX}/_search`, body: JSON.stringify(b), headers: json }));
    case 'bulk':
      return bulkBody.map((body) => ({ method: 'POST', path: '/_bulk', body, headers: { 'content-type': 'application/x-ndjson' } }));
    case 'headers':
      return fc.tuple(headerSet, fc.constantFrom('{"query":{"match_all":{}}}', '{"query":', '')).map(([headers, body]) => ({ method: 'POST', path: `/${FUZZ_INDEX}/_search`, body, headers }));
  }
}

/** What is wrong with an answer, or null when it is well formed. */
export function checkAnswer(status: number, text: string): string | null {
  if (status >= 500 && status !== 504) return `status ${status}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  if (status >= 400) {
    const b = body as { error?: { type?: unknown; reason?: unknown }; status?: unknown };
    if (typeof b.error?.type !== 'string' || typeof b.error.reason !== 'string') return 'an error without error.type and error.reason';
    if (b.status !== status) return `error body says status ${String(b.status)}`;
  }
  return null;
}

export interface FuzzRun {
  kind: FuzzKind;
  inputs: number;
  /** answers by status class, e.g. { "2xx": 180, "4xx": 20 } */
  statuses: Record<string, number>;
}

/**
 * Sends `numRuns` generated requests of one kind (fixed seed); throws fast-check's report, with
 * the smallest failing request it found, when an answer is not well formed.
 */
export async function fuzz(url: string, kind: FuzzKind, numRuns: number, seed: number): Promise<FuzzRun> {
  const statuses: Record<string, number> = {};
  let inputs = 0;
  await fc.assert(
    fc.asyncProperty(fuzzRequests(kind), async (req) => {
      inputs++;
      const res = await fetch(`${url}${req.path}`, { method: req.method, headers: req.headers, ...(req.body !== undefined ? { body: req.body } : {}), signal: AbortSignal.timeout(60_000) });
      const text = await res.text();
      const cls = `${Math.floor(res.status / 100)}xx`;
      statuses[cls] = (statuses[cls] ?? 0) + 1;
      const problem = checkAnswer(res.status, text);
      if (problem) throw new Error(`${problem}: ${req.method} ${req.path} ${JSON.stringify(req.headers)} ${req.body ?? ''} -> ${res.status} ${text.slice(0, 500)}`);
    }),
    { numRuns, seed, endOnFailure: false },
  );
  return { kind, inputs, statuses };
}

/** A few documents for the fuzzed searches to find. */
export async function seedFuzzIndex(url: string): Promise<void> {
  const lines: string[] = [];
  for (let i = 0; i < 200; i++) {
    lines.push(`{"index":{"_index":"${FUZZ_INDEX}"}}`, JSON.stringify({ _line: `GET /api/v1 ${i % 7 === 0 ? 'error timeout' : 'ok'} user alice${i % 5}`, level: i % 3 ? 'info' : 'error', status: 200 + (i % 4) * 100, latency_ms: i * 1.5, host: `h${i % 4}`, user: { name: `u${i % 9}` } }));
  }
  const res = await fetch(`${url}/_bulk?refresh=true`, { method: 'POST', body: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  if (res.status !== 200) throw new Error(`seeding the fuzz index failed: ${res.status} ${await res.text()}`);
}
