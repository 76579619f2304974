/**
 * Small hand-checked corpora for the search executor tests, built with the real Memtable.
 */
import type { IndexedDocument, IndexedField } from '../../../src/engine/document/index.js';
import { Memtable } from '../../../src/engine/memtable/index.js';
import type { Query } from '../../../src/query/index.js';
import {
  executeSearch,
  type SearchRequest,
  type SearchResult,
  type SearchTarget,
} from '../../../src/engine/search/index.js';

export const text = (name: string, ...values: string[]): IndexedField => ({ name, type: 'text', values });
export const kw = (name: string, ...values: string[]): IndexedField => ({ name, type: 'keyword', values });
export const long = (name: string, ...values: number[]): IndexedField => ({ name, type: 'long', values });
export const dbl = (name: string, ...values: number[]): IndexedField => ({ name, type: 'double', values });
export const bool = (name: string, ...values: boolean[]): IndexedField => ({ name, type: 'boolean', values });
export const date = (name: string, ...values: string[]): IndexedField => ({
  name,
  type: 'date',
  values: values.map((v) => Date.parse(v)),
});

export interface DocSpec {
  /** label stored in the source as `n`, used to name hits in assertions */
  n: string;
  ts: number;
  id?: bigint;
  lid?: number;
  fields: IndexedField[];
}

let nextId = 1000n;

export function segment(id: string, docs: DocSpec[]): Memtable {
  const m = new Memtable(id);
  docs.forEach((d, i) => {
    const lid = d.lid ?? i + 1;
    const doc: IndexedDocument = {
      id: d.id ?? nextId++,
      lid,
      ts: d.ts,
      source: JSON.stringify({ n: d.n, _ts: d.ts, _lid: lid }),
      fields: d.fields,
    };
    m.add(doc);
  });
  return m;
}

/**
 * The main corpus: one segment, doc ids 0..9 in `_ts` order. Expected answers in the tests are
 * worked out from this table by hand.
 */
export const DOCS: DocSpec[] = [
  {
    n: 'd0',
    ts: Date.parse('2024-01-01T10:00:00Z'),
    id: 11n,
    fields: [
      text('_line', 'GET /index.html 200 OK'),
      kw('tag', 'a*b'),
      kw('host', 'web-1'),
      long('status', 200),
      dbl('took', 1.5),
      bool('ok', true),
      date('at', '2024-01-01T10:00:00Z'),
    ],
  },
  {
    n: 'd1',
    ts: Date.parse('2024-01-01T23:00:00Z'),
    id: 12n,
    fields: [
      text('_line', 'POST /login 500 error timeout'),
      kw('tag', 'axb'),
      kw('host', 'web-2'),
      long('status', 500),
      dbl('took', 20.25),
      bool('ok', false),
      date('at', '2024-01-02T00:00:00Z'),
    ],
  },
  {
    n: 'd2',
    ts: Date.parse('2024-01-02T08:00:00Z'),
    id: 13n,
    fields: [text('_line', 'error connecting to database: timeout'), kw('host', 'web-1'), long('status', 503), bool('ok', false)],
  },
  {
    n: 'd3',
    ts: Date.parse('2024-01-02T09:00:00Z'),
    id: 14n,
    fields: [text('_line', 'user Alice logged in'), kw('host', 'Web-3'), long('status', 200), dbl('took', 0.5), kw('user', 'alice')],
  },
  {
    n: 'd4',
    ts: Date.parse('2024-01-02T10:00:00Z'),
    id: 15n,
    fields: [text('_line', 'quick brown fox jumps over the lazy dog'), kw('host', 'web-2'), long('status', 404)],
  },
  {
    n: 'd5',
    ts: Date.parse('2024-01-02T11:00:00Z'),
    id: 16n,
    fields: [text('_line', 'the lazy dog sleeps, quick fox'), kw('host', 'web-10'), dbl('took', 7)],
  },
  {
    n: 'd6',
    ts: Date.parse('2024-01-02T23:59:59.999Z'),
    id: 17n,
    fields: [
      text('_line', 'error error error'),
      long('status', 500),
      kw('user', 'bob'),
      date('at', '2024-01-02T23:59:59.999Z'),
    ],
  },
  {
    n: 'd7',
    ts: Date.parse('2024-01-03T00:00:00Z'),
    id: 18n,
    fields: [text('_line', 'fox quick brown'), kw('host', 'db-1'), kw('user', 'carol'), dbl('took', 3)],
  },
  {
    n: 'd8',
    ts: Date.parse('2024-01-03T01:00:00Z'),
    id: 19n,
    fields: [text('_line', 'brown quick fox'), kw('host', 'web-2'), long('status', 201), date('at', '2023-12-31T00:00:00Z')],
  },
  {
    n: 'd9',
    ts: Date.parse('2024-01-03T02:00:00Z'),
    id: 20n,
    fields: [text('_line', 'quick red fox and a quick brown dog'), kw('host', 'web-1'), dbl('took', -2)],
  },
];

export function mainCorpus(): SearchTarget[] {
  return [{ index: 'logs', segment: segment('main', DOCS) }];
}

export function request(query: Query, extra: Partial<SearchRequest> = {}): SearchRequest {
  return { query, from: 0, size: 100, sort: [], trackTotalHits: true, ...extra };
}

/** Labels of the hits, in hit order. */
export function labels(result: SearchResult): string[] {
  return result.hits.map((h) => (JSON.parse(h.source) as { n: string }).n);
}

/** Labels of every matching doc, in doc order, checking that the total agrees. */
export function matching(targets: SearchTarget[], query: Query): string[] {
  const result = executeSearch(targets, request(query, { sort: [{ field: '_doc', order: 'asc' }], size: 1000 }));
  if (result.total !== result.hits.length) throw new Error(`total ${result.total} but ${result.hits.length} hits`);
  return labels(result);
}
