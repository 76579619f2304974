/**
 * One set of documents, writes, searches and aggregations to run against a one-process node and
 * against a cluster whose indexes are spread over cache nodes: the answers must be the same.
 * Every document has a client `_id` and a `_ts`, so nothing differs between the layouts but
 * where the documents are.
 */
import assert from 'node:assert/strict';
import { ndjson, request } from '../../support/node.js';

export const INDEXES = ['logs-a', 'logs-b', 'logs-c', 'logs-d'];
const LEVELS = ['info', 'warn', 'error', 'debug'];
const T0 = Date.UTC(2024, 0, 1);

export function doc(seq: number): Record<string, unknown> {
  return {
    _ts: T0 + seq * 61_000,
    seq,
    level: LEVELS[(seq * 7) % 4],
    status: 200 + ((seq * 13) % 5) * 100,
    // never a whole number: the first document of an index maps it as a double, whichever arrives first
    latency: ((seq * 37) % 1000) / 10 + 0.05,
    user: `user-${(seq * 11) % 23}`,
    msg: `request ${seq % 9 === 0 ? 'timeout' : 'done'} for user-${(seq * 11) % 23}`,
  };
}

/** A bulk body of documents seq in [from, to), spread over the indexes, each with its `_id`. */
export function bulkBody(from: number, to: number): string {
  const lines: unknown[] = [];
  for (let seq = from; seq < to; seq++) lines.push({ index: { _index: INDEXES[seq % INDEXES.length], _id: `d${seq}` } }, doc(seq));
  return ndjson(lines);
}

export async function bulk(url: string, body: string): Promise<{ errors: boolean; items: Array<Record<string, { status: number; _id: string; result?: string }>> }> {
  const res = await request<{ errors: boolean; items: Array<Record<string, { status: number; _id: string; result?: string }>> }>(`${url}/_bulk`, {
    body,
    headers: { 'content-type': 'application/x-ndjson' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

export const SEARCHES: Array<{ name: string; path: string; body?: unknown; method?: string }> = [
  { name: 'match_all, newest first', path: '/logs-*/_search?size=25' },
  { name: 'query string, sorted by a field', path: '/logs-*/_search', body: { query: { query_string: { query: 'level:error' } }, sort: [{ status: 'desc' }, { seq: 'asc' }], size: 15 } },
  { name: 'a page further on', path: '/logs-*/_search', body: { from: 30, size: 10, sort: [{ seq: 'asc' }] } },
  { name: 'scored match', path: '/logs-a,logs-c/_search', body: { query: { match: { msg: 'timeout' } }, size: 10, sort: [{ _score: 'desc' }, { seq: 'asc' }] } },
  { name: 'capped total', path: '/logs-*/_search', body: { track_total_hits: 100, size: 0 } },
  { name: 'fields and highlight', path: '/logs-b/_search', body: { query: { match: { msg: 'timeout' } }, fields: ['level', 'status'], highlight: { fields: { msg: {} } }, sort: [{ seq: 'desc' }], size: 5 } },
  { name: 'search_after', path: '/logs-*/_search', body: { sort: [{ seq: 'desc' }], search_after: [150], size: 7 } },
  {
    name: 'aggregations',
    path: '/logs-*/_search',
    body: {
      size: 0,
      aggs: {
        levels: { terms: { field: 'level', size: 3 }, aggs: { latency: { avg: { field: 'latency' } }, newest: { top_hits: { size: 2, sort: [{ seq: 'desc' }] } } } },
        users: { terms: { field: 'user', size: 5, order: { _key: 'asc' } } },
        per_hour: { date_histogram: { field: '_ts', fixed_interval: '1h' }, aggs: { statuses: { stats: { field: 'status' } } } },
        distinct_users: { cardinality: { field: 'user' } },
        latency_pct: { percentiles: { field: 'latency', percents: [50, 95, 99] } },
        latency_ranges: { range: { field: 'latency', ranges: [{ to: 10 }, { from: 10, to: 50 }, { from: 50 }] } },
        kinds: { filters: { filters: { timeouts: { match: { msg: 'timeout' } }, errors: { term: { level: 'error' } } } } },
        no_user: { missing: { field: 'user' } },
        status_hist: { histogram: { field: 'status', interval: 200 } },
      },
    },
  },
  { name: 'aggregations of some indexes under a filter', path: '/logs-b,logs-d/_search', body: { size: 0, query: { range: { status: { gte: 400 } } }, aggs: { levels: { terms: { field: 'level' } }, lat: { extended_stats: { field: 'latency' } } } } },
  { name: 'count', path: '/logs-*/_count', body: { query: { term: { level: 'warn' } } } },
  { name: 'count of one index', path: '/logs-c/_count' },
  // a count neither pages nor sorts: a sort on a field no index maps is no error
  { name: 'count with paging and sort parameters', path: '/logs-*/_count?q=level:warn&from=5&size=3&sort=no_such_field:desc' },
  {
    name: 'msearch',
    path: '/_msearch',
    method: 'ndjson',
    body: ndjson([{ index: 'logs-a' }, { size: 3, sort: [{ seq: 'asc' }] }, { index: 'logs-*' }, { size: 0, aggs: { l: { terms: { field: 'level' } } } }, { index: 'missing-index' }, {}]),
  },
  { name: 'a document by _id', path: '/logs-b/_doc/d1' },
  {
    name: 'async search',
    path: '/logs-*/_async_search?wait_for_completion_timeout=30s',
    body: { size: 3, sort: [{ seq: 'desc' }], aggs: { levels: { terms: { field: 'level' } } } },
  },
  { name: 'a missing index', path: '/nope/_search' },
  { name: 'a sort on an unmapped field', path: '/logs-*/_search', body: { sort: [{ nothing: 'asc' }] } },
];

/** what depends on the order documents arrived in, when several writers wrote at once */
const ARRIVAL_FIELDS = ['_lid', '_seq_no', '_version', '_primary_term'];

/**
 * The answers to SEARCHES, without what differs between runs (`took`) or layouts (`_doc` sort
 * values of the default sort); with `anyArrivalOrder`, without what depends on the order of
 * arrival (lids, versions of documents sent again).
 */
export async function answersOf(url: string, anyArrivalOrder = false): Promise<Record<string, unknown>> {
  const drop = anyArrivalOrder ? new Set(ARRIVAL_FIELDS) : new Set<string>();
  const out: Record<string, unknown> = {};
  for (const s of SEARCHES) {
    const res =
      s.method === 'ndjson'
        ? await request(`${url}${s.path}`, { body: s.body as string, headers: { 'content-type': 'application/x-ndjson' } })
        : await request(`${url}${s.path}`, s.body === undefined ? {} : { body: s.body as object });
    out[s.name] = { status: res.status, body: normalized(res.body, s.body === undefined || !JSON.stringify(s.body).includes('"sort"'), drop) };
  }
  return out;
}

function normalized(value: unknown, dropSort: boolean, drop: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(value)) return value.map((v) => normalized(v, dropSort, drop));
  // sums of squares add up in the order documents arrived: the last bits differ with it
  if (drop.size > 0 && typeof value === 'number' && !Number.isInteger(value)) return Number(value.toPrecision(12));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'took' || k === 'start_time_in_millis' || k === 'expiration_time_in_millis' || drop.has(k)) continue;
    if (k === 'sort' && dropSort) continue;
    out[k] = normalized(v, dropSort, drop);
  }
  return out;
}

/** Updates and deletes by `_id` through the document APIs, the same on both layouts. */
export async function documentWrites(url: string): Promise<unknown[]> {
  const answers: unknown[] = [];
  const call = async (path: string, method: string, body?: object) => {
    const res = await request(`${url}${path}`, { method, ...(body === undefined ? {} : { body }) });
    answers.push({ path, method, status: res.status, body: normalized(res.body, false) });
  };
  await call('/logs-a/_doc/d0', 'DELETE');
  await call('/logs-b/_update/d1', 'POST', { doc: { level: 'fatal' } });
  await call('/logs-c/_doc/extra-1', 'PUT', doc(10_000));
  await call('/logs-e/_create/new-index-doc', 'PUT', doc(10_001));
  await call('/logs-a/_doc/d0', 'GET');
  await call('/logs-b/_doc/d1', 'GET');
  return answers;
}

/** Every page of scrolls over the indexes (newest first, and by a field), without the scroll ids; then the scroll is cleared. */
export async function scrollPages(url: string, anyArrivalOrder = false): Promise<unknown[]> {
  const drop = new Set(anyArrivalOrder ? [...ARRIVAL_FIELDS, '_scroll_id'] : ['_scroll_id']);
  const out: unknown[] = [];
  for (const body of [{ size: 40, _source: ['seq'] }, { size: 33, sort: [{ status: 'asc' }], _source: ['seq', 'status'], aggs: { l: { terms: { field: 'level' } } } }]) {
    let page = await request<{ _scroll_id: string; hits: { hits: unknown[] } }>(`${url}/logs-*/_search?scroll=1m`, { body });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    const id = page.body._scroll_id;
    for (let n = 0; n < 100; n++) {
      out.push(normalized(page.body, !('sort' in body), drop));
      if (page.body.hits.hits.length === 0) break;
      page = await request(`${url}/_search/scroll`, { body: { scroll: '1m', scroll_id: id } });
      assert.equal(page.status, 200, JSON.stringify(page.body));
    }
    const cleared = await request(`${url}/_search/scroll/${id}`, { method: 'DELETE' });
    out.push(cleared.body);
    out.push((await request(`${url}/_search/scroll`, { body: { scroll: '1m', scroll_id: id } })).status);
  }
  return out;
}
