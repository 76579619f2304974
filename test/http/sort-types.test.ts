/**
 * Sorting and scrolling on every sortable type (keyword, long, double, date, boolean, `_id`,
 * `_doc`, `_score`) in both orders with `missing` first or last, over a flushed segment and a
 * memtable that lacks some fields entirely; aggregations only on a scroll's first page.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request } from '../support/node.js';
import { esClientNode } from '../support/es-client-node.js';

interface Hit {
  _source: { seq: number };
  sort: unknown[];
}
interface SearchBody {
  _scroll_id?: string;
  hits: { hits: Hit[] };
  aggregations?: Record<string, { value: number }>;
}

interface Row {
  seq: number;
  k?: string;
  n?: number;
  d?: number;
  t?: string;
  b?: boolean;
}

// first batch, flushed into a segment
const FLUSHED: Row[] = [
  { seq: 0, k: 'b', n: 2, d: 1.5, t: '2020-01-02', b: true },
  { seq: 1, k: 'a', n: 10, d: -1, t: '2020-01-01', b: false },
  { seq: 2 },
  { seq: 3, k: 'c', n: -5, d: 3, t: '2021-01-01', b: true },
];
// second batch, left in the memtable: `d` and `t` appear in none of its documents
const UNFLUSHED: Row[] = [{ seq: 4, k: 'e', n: 7, b: false }, { seq: 5 }, { seq: 6, k: 'd', n: 0, b: true }];
const ROWS = [...FLUSHED, ...UNFLUSHED];

const SORTED_VALUE: Record<string, (r: Row) => number | string | undefined> = {
  k: (r) => r.k,
  n: (r) => r.n,
  d: (r) => r.d,
  t: (r) => (r.t === undefined ? undefined : Date.parse(r.t)),
  b: (r) => (r.b === undefined ? undefined : r.b ? 1 : 0),
};

/** The expected order of `seq`s: values in order, ties by position in the given order, missing together. */
function expectedOrder(field: string, order: 'asc' | 'desc', missing: '_first' | '_last'): number[] {
  const of = SORTED_VALUE[field]!;
  const present = ROWS.filter((r) => of(r) !== undefined);
  const absent = ROWS.filter((r) => of(r) === undefined).map((r) => r.seq);
  present.sort((x, y) => {
    const a = of(x)!;
    const b = of(y)!;
    const c = a < b ? -1 : a > b ? 1 : x.seq - y.seq;
    return order === 'asc' ? c : -c;
  });
  const values = present.map((r) => r.seq);
  return missing === '_first' ? [...absent, ...values] : [...values, ...absent];
}

/** Groups of equal sort values may come in any order among themselves: compare as value runs. */
function valueRuns(field: string, seqs: number[]): Array<number | string | undefined> {
  const of = SORTED_VALUE[field]!;
  return seqs.map((s) => of(ROWS[s]!));
}

describe('sort and scroll on every type', () => {
  const es = esClientNode();

  before(async () => {
    const { node } = es;
    const create = await request(`${node.url}/sorts`, {
      method: 'PUT',
      body: { mappings: { properties: { k: { type: 'keyword' }, n: { type: 'long' }, d: { type: 'double' }, t: { type: 'date' }, b: { type: 'boolean' }, msg: { type: 'text' } } } },
    });
    assert.equal(create.status, 200);
    assert.equal((await bulkIndex(node.url, 'sorts', FLUSHED.map((r) => ({ ...r, msg: r.seq === 1 ? 'x y' : 'x' })))).status, 200);
    assert.equal((await request(`${node.url}/sorts/_flush`, { method: 'POST' })).status, 200);
    assert.equal((await bulkIndex(node.url, 'sorts', UNFLUSHED.map((r) => ({ ...r, msg: 'x' })))).status, 200);
    await request(`${node.url}/sorts/_refresh`, { method: 'POST' });
  });


  for (const field of Object.keys(SORTED_VALUE)) {
    for (const order of ['asc', 'desc'] as const) {
      for (const missing of ['_first', '_last'] as const) {
        it(`${field} ${order} missing ${missing}: one search and a scroll of pages of 2 agree`, async () => {
          const expected = expectedOrder(field, order, missing);
          const sort = [{ [field]: { order, missing } }];
          const whole = await request<SearchBody>(`${es.node.url}/sorts/_search`, { body: { size: 20, sort } });
          assert.equal(whole.status, 200);
          const seqs = whole.body.hits.hits.map((h) => h._source.seq);
          assert.deepEqual(valueRuns(field, seqs), valueRuns(field, expected));
          for (const h of whole.body.hits.hits) {
            const value = SORTED_VALUE[field]!(ROWS[h._source.seq]!);
            assert.deepEqual(h.sort, [value ?? null]);
          }

          const first = await es.client.search<SearchBody>({ index: 'sorts', scroll: '1m', body: { size: 2, sort, aggs: { top: { max: { field: 'n' } } } } });
          assert.equal(first.body.aggregations?.top?.value, 10, 'aggregations on the first page');
          const scrolled = first.body.hits.hits.map((h) => h._source.seq);
          let scrollId = first.body._scroll_id!;
          for (let page = 0; page < 10; page++) {
            const next = await es.client.scroll<SearchBody>({ scroll_id: scrollId, scroll: '1m' });
            assert.equal(next.body.aggregations, undefined, 'no aggregations after the first page');
            if (next.body.hits.hits.length === 0) break;
            scrolled.push(...next.body.hits.hits.map((h) => h._source.seq));
            scrollId = next.body._scroll_id!;
          }
          await es.client.clearScroll({ body: { scroll_id: scrollId } });
          assert.equal(scrolled.length, ROWS.length, `every document once: ${scrolled.join(',')}`);
          assert.equal(new Set(scrolled).size, ROWS.length);
          assert.deepEqual(valueRuns(field, scrolled), valueRuns(field, expected));
        });
      }
    }
  }

  for (const field of ['_id', '_doc', '_score']) {
    for (const order of ['asc', 'desc'] as const) {
      it(`${field} ${order}: a scroll returns every document once, in order`, async () => {
        const body = { size: 3, query: { match: { msg: 'x y' } }, sort: [{ [field]: { order } }] };
        const whole = await request<SearchBody>(`${es.node.url}/sorts/_search`, { body: { ...body, size: 20 } });
        assert.equal(whole.status, 200);
        const values = whole.body.hits.hits.map((h) => h.sort[0]);
        const sorted = [...values].sort((a, b) => compareLoose(a, b) * (order === 'asc' ? 1 : -1));
        assert.deepEqual(values, sorted);
        if (field === '_score') assert.equal(order === 'asc' ? values.at(-1) : values[0], Math.max(...(values as number[])));

        const seen: number[] = [];
        let res = await request<SearchBody>(`${es.node.url}/sorts/_search?scroll=1m`, { body });
        while (res.body.hits.hits.length > 0) {
          seen.push(...res.body.hits.hits.map((h) => h._source.seq));
          res = await request<SearchBody>(`${es.node.url}/_search/scroll`, { body: { scroll: '1m', scroll_id: res.body._scroll_id } });
        }
        assert.deepEqual([...seen].sort(), ROWS.map((r) => r.seq));
      });
    }
  }
});

function compareLoose(a: unknown, b: unknown): number {
  if (typeof a === 'string' && typeof b === 'string') return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
  return (a as number) - (b as number);
}
