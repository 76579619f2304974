/** The official Elasticsearch (v7) and OpenSearch clients driving search, msearch, count and scroll. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client as EsClient } from '@elastic/elasticsearch';
import { Client as OsClient } from '@opensearch-project/opensearch';
import { bulkIndex, startTestNode, type TestNode } from '../support/node.js';

interface Doc {
  n: number;
  _line: string;
  kind: string;
  _ts: number;
}

const T0 = Date.UTC(2024, 0, 1);
const COUNT = 1234;
const DOCS: Doc[] = Array.from({ length: COUNT }, (_, n) => ({
  n,
  _line: `client event ${n} ${n % 10 === 0 ? 'tenth' : 'plain'}`,
  kind: ['alpha', 'beta', 'gamma'][n % 3]!,
  _ts: T0 + n,
}));

/** Response bodies as both clients return them. */
interface SearchBody {
  hits: { total: { value: number } | number; hits: Array<{ _source: Doc; sort?: unknown[] }> };
  _scroll_id?: string;
}

let node: TestNode;
before(async () => {
  node = await startTestNode();
  for (let from = 0; from < COUNT; from += 500) {
    assert.equal((await bulkIndex(node.url, 'cli-logs', DOCS.slice(from, from + 500))).status, 200);
  }
});
after(async () => {
  await node.destroy();
});

const ns = (body: SearchBody) => body.hits.hits.map((h) => h._source.n);

describe('@elastic/elasticsearch 7', () => {
  let client: EsClient;
  before(() => {
    client = new EsClient({ node: node.url });
  });
  after(async () => {
    await client.close();
  });

  it('searches with a Query DSL body, sort and search_after', async () => {
    const res = await client.search<SearchBody>({
      index: 'cli-logs',
      body: { query: { bool: { filter: [{ term: { kind: 'beta' } }, { range: { n: { lt: 30 } } }] } }, sort: [{ n: 'asc' }], size: 5 },
    });
    assert.deepEqual(ns(res.body), [1, 4, 7, 10, 13]);
    assert.deepEqual(res.body.hits.total, { value: 10, relation: 'eq' });
    const next = await client.search<SearchBody>({
      index: 'cli-logs',
      body: { query: { term: { kind: 'beta' } }, sort: [{ n: 'asc' }], size: 3, search_after: res.body.hits.hits[4]!.sort },
    });
    assert.deepEqual(ns(next.body), [16, 19, 22]);
  });

  it('counts', async () => {
    assert.equal((await client.count({ index: 'cli-logs' })).body.count, COUNT);
    assert.equal((await client.count({ index: 'cli-logs', q: 'tenth' })).body.count, 124);
    assert.equal((await client.count({ index: 'cli-logs', body: { query: { match: { _line: 'tenth' } } } })).body.count, 124);
  });

  it('multi-searches, with a failing item reported in place', async () => {
    const res = await client.msearch<{ responses: Array<SearchBody & { status: number; error?: { type: string } }> }>({
      body: [
        { index: 'cli-logs' },
        { query: { match: { _line: 'tenth' } }, size: 0 },
        { index: 'no-such-index' },
        { query: { match_all: {} } },
        { index: 'cli-logs' },
        { query: { term: { n: 42 } } },
      ],
    });
    const [tenth, missing, one] = res.body.responses;
    assert.deepEqual(tenth!.hits.total, { value: 124, relation: 'eq' });
    assert.equal(missing!.status, 404);
    assert.equal(missing!.error!.type, 'index_not_found_exception');
    assert.deepEqual(ns(one!), [42]);
  });

  it('runs the msearch helper', async () => {
    const m = client.helpers.msearch({ operations: 3, flushInterval: 10 });
    try {
      const answers = await Promise.all([0, 1, 2, 3].map((n) => m.search<SearchBody>({ index: 'cli-logs' }, { query: { term: { n } } })));
      assert.deepEqual(answers.map((a) => ns(a.body)), [[0], [1], [2], [3]]);
    } finally {
      m.stop();
    }
  });

  it('scrolls with the scroll API and clears', async () => {
    const first = await client.search<SearchBody>({ index: 'cli-logs', scroll: '30s', size: 500, body: { sort: ['_doc'] } });
    const seen = ns(first.body);
    let scrollId = first.body._scroll_id!;
    for (;;) {
      const page = await client.scroll<SearchBody>({ scroll_id: scrollId, scroll: '30s' });
      if (page.body.hits.hits.length === 0) break;
      seen.push(...ns(page.body));
      scrollId = page.body._scroll_id!;
    }
    assert.deepEqual(seen, DOCS.map((d) => d.n));
    const cleared = await client.clearScroll({ scroll_id: scrollId });
    assert.deepEqual(cleared.body, { succeeded: true, num_freed: 1 });
  });

  it('scrolls with helpers.scrollSearch and helpers.scrollDocuments', async () => {
    const pages: number[] = [];
    let total = 0;
    for await (const result of client.helpers.scrollSearch<Doc>({ index: 'cli-logs', size: 300, body: { query: { term: { kind: 'gamma' } } } })) {
      pages.push(result.documents.length);
      total += result.documents.length;
    }
    assert.equal(total, 411);
    assert.deepEqual(pages, [300, 111]);

    const seen = new Set<number>();
    for await (const doc of client.helpers.scrollDocuments<Doc>({ index: 'cli-logs', size: 200, rest_total_hits_as_int: true })) {
      assert.ok(!seen.has(doc.n), `document ${doc.n} seen once`);
      seen.add(doc.n);
    }
    assert.equal(seen.size, COUNT);
  });

  it('stops a scroll early with clear()', async () => {
    let pages = 0;
    for await (const result of client.helpers.scrollSearch<Doc>({ index: 'cli-logs', size: 100 })) {
      pages++;
      await result.clear();
    }
    assert.equal(pages, 1);
  });
});

describe('@opensearch-project/opensearch', () => {
  let client: OsClient;
  before(() => {
    client = new OsClient({ node: node.url });
  });
  after(async () => {
    await client.close();
  });

  it('searches and counts', async () => {
    const res = await client.search({ index: 'cli-logs', body: { query: { match_phrase: { _line: 'event 77' } }, size: 10 } });
    assert.deepEqual(ns(res.body as unknown as SearchBody), [77]);
    const count = await client.count({ index: 'cli-logs', body: { query: { range: { n: { gte: 1000 } } } } });
    assert.equal(count.body.count, 234);
  });

  it('multi-searches', async () => {
    const res = await client.msearch({ index: 'cli-logs', body: [{}, { query: { term: { n: 5 } } }, { index: 'cli-logs' }, { size: 0 }] });
    const responses = res.body.responses as unknown as Array<SearchBody & { status: number }>;
    assert.deepEqual(ns(responses[0]!), [5]);
    assert.deepEqual(responses[1]!.hits.total, { value: COUNT, relation: 'eq' });
    assert.deepEqual(responses.map((r) => r.status), [200, 200]);
  });

  it('scrolls with the scroll API and helpers.scrollDocuments', async () => {
    const first = await client.search({ index: 'cli-logs', scroll: '1m', size: 400, body: { sort: [{ n: 'desc' }] } });
    const firstBody = first.body as unknown as SearchBody;
    const seen = ns(firstBody);
    for (;;) {
      const page = await client.scroll({ body: { scroll_id: firstBody._scroll_id!, scroll: '1m' } });
      const body = page.body as unknown as SearchBody;
      if (body.hits.hits.length === 0) break;
      seen.push(...ns(body));
    }
    assert.deepEqual(seen, DOCS.map((d) => d.n).reverse());
    await client.clearScroll({ body: { scroll_id: [firstBody._scroll_id!] } });

    let n = 0;
    for await (const doc of client.helpers.scrollDocuments<Doc>({ index: 'cli-logs', size: 500, body: { query: { match: { _line: 'tenth' } } } })) {
      assert.equal(doc.n % 10, 0);
      n++;
    }
    assert.equal(n, 124);
  });
});
