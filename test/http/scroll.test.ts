/** Scrolls: consistent views while writes continue, every form of continue and clear, limits, owners. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ScrollStore, type ScrollContext } from '../../src/http/search/index.js';
import { bulkIndex, ndjson, request, startTestNode, type TestNode } from '../support/node.js';
import { bearer, startNodeWithTwoReaders, type ReadersNode } from '../support/rbac-node.js';

interface Hit {
  _id: string;
  _source: { seq: number; kind?: string };
  sort?: unknown[];
}
interface ScrollBody {
  _scroll_id: string;
  hits: { total: { value: number; relation: string } | number; hits: Hit[] };
  error?: { type: string; reason: string };
  status?: number;
}

const T0 = Date.UTC(2024, 0, 1);
const docs = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => ({ seq: from + k, _line: `event ${from + k}`, kind: ['a', 'b', 'c'][(from + k) % 3], _ts: T0 + ((from + k) % 50) }));
const seqs = (res: { body: ScrollBody }) => res.body.hits.hits.map((h) => h._source.seq);

async function bulkFast(url: string, index: string, list: object[]): Promise<void> {
  const lines: unknown[] = [];
  for (const d of list) lines.push({ index: { _index: index } }, d);
  const res = await request<{ errors: boolean }>(`${url}/_bulk`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(res.status, 200);
  assert.equal(res.body.errors, false);
}

describe('scroll store', () => {
  let clock = 1_000;
  const put = (store: ScrollStore, c: ScrollContext) => {
    store.reserve();
    store.add(c);
  };
  const context = (id: string, owner: string, keepAliveMs = 100): ScrollContext => ({
    id,
    owner,
    indices: [],
    targets: [],
    search: {} as ScrollContext['search'],
    sortValuesShown: undefined,
    keepAliveMs,
    expiresAtMs: clock + keepAliveMs,
    after: undefined,
  });

  it('bounds the number of open scrolls, counting only live ones', () => {
    const store = new ScrollStore({ maxOpen: 2, now: () => clock, sweepIntervalMs: 60_000 });
    put(store, context('a', 'x'));
    put(store, context('b', 'x', 1000));
    assert.throws(() => put(store, context('c', 'x')), (err: { status: number; type: string; message: string }) => {
      assert.equal(err.status, 429);
      assert.match(err.message, /Trying to create too many scroll contexts. Must be less than or equal to: \[2\]/);
      return true;
    });
    clock += 200; // `a` expires
    put(store, context('c', 'x'));
    assert.equal(store.size, 2);
    assert.ok(store.remove('c', 'x'));
    store.reserve(); // a scroll being opened holds the last place
    assert.throws(() => store.reserve(), /too many scroll contexts/);
    store.release();
    store.reserve();
    store.close();
  });

  it('expires by keep-alive since last use, and a sweep drops the expired', () => {
    const store = new ScrollStore({ maxOpen: 10, now: () => clock, sweepIntervalMs: 60_000 });
    const a = context('a', 'x', 100);
    put(store, a);
    put(store, context('b', 'x', 100));
    clock += 80;
    store.touch(a);
    clock += 80;
    assert.ok(store.get('a', 'x'), 'touched, so still alive');
    assert.equal(store.get('b', 'x'), undefined, 'expired');
    put(store, context('c', 'x', 10));
    clock += 15;
    assert.equal(store.sweep(), 1, 'c expired, a not yet');
    store.touch(a, 5000);
    clock += 1000;
    assert.ok(store.get('a', 'x'), 'a new keep-alive replaces the old one');
    store.close();
  });

  it('sweeps on its own timer', async () => {
    let now = 0;
    const store = new ScrollStore({ maxOpen: 10, now: () => now, sweepIntervalMs: 5 });
    put(store, { ...context('a', 'x', 10), expiresAtMs: 10 });
    now = 50;
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(store.size, 0);
    store.close();
  });

  it('shows a scroll only to its owner', () => {
    const store = new ScrollStore({ maxOpen: 10, now: () => clock });
    put(store, context('a', 'api_key:1', 1000));
    put(store, context('b', 'api_key:2', 1000));
    assert.equal(store.get('a', 'api_key:2'), undefined);
    assert.equal(store.remove('a', 'api_key:2'), false);
    assert.equal(store.removeAll('api_key:2'), 1);
    assert.ok(store.get('a', 'api_key:1'));
    store.close();
  });
});

describe('scroll over HTTP', () => {
  let node: TestNode;
  const open = (path: string, body: object = {}) => request<ScrollBody>(`${node.url}${path}`, { body });
  const next = (id: string) => request<ScrollBody>(`${node.url}/_search/scroll`, { body: { scroll: '1m', scroll_id: id } });
  const clear = (body?: unknown, path = '/_search/scroll') =>
    request<{ succeeded: boolean; num_freed: number; error?: { type: string } }>(`${node.url}${path}`, {
      method: 'DELETE',
      ...(body === undefined ? {} : { body: body as object }),
    });

  before(async () => {
    node = await startTestNode({ SVC_MAX_OPEN_SCROLLS: '6', SVC_IDLE_INDEX_SECONDS: '600' });
    assert.equal((await bulkIndex(node.url, 'sc', docs(0, 30))).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it('returns a scroll id and pages to the end, every doc once, in the request order', async () => {
    const first = await open('/sc/_search?scroll=1m', { size: 7, sort: [{ seq: 'desc' }] });
    assert.equal(first.status, 200);
    const id = first.body._scroll_id;
    assert.match(id, /^[A-Za-z0-9_-]{32}$/, 'an opaque base64url id');
    assert.ok(!Buffer.from(id, 'base64url').toString('latin1').includes('sc'));
    const seen = seqs(first);
    for (;;) {
      const page = await next(id);
      assert.equal(page.status, 200);
      assert.equal(page.body._scroll_id, id);
      assert.deepEqual(page.body.hits.total, { value: 30, relation: 'eq' });
      if (page.body.hits.hits.length === 0) break;
      // `_doc`, appended to page without ties, is not shown
      assert.equal(page.body.hits.hits[0]!.sort!.length, 1);
      seen.push(...seqs(page));
    }
    assert.deepEqual(seen, Array.from({ length: 30 }, (_, i) => 29 - i));
    assert.equal((await next(id)).body.hits.hits.length, 0, 'an exhausted scroll stays open until cleared');
    assert.equal((await clear({ scroll_id: id })).status, 200);
  });

  it('continues in every form Elasticsearch accepts', async () => {
    const first = await open('/sc/_search?scroll=1m&size=5&sort=seq:asc');
    const id = first.body._scroll_id;
    const forms = [
      () => request<ScrollBody>(`${node.url}/_search/scroll`, { body: { scroll_id: id } }),
      () => request<ScrollBody>(`${node.url}/_search/scroll?scroll=30s&scroll_id=${id}`),
      () => request<ScrollBody>(`${node.url}/_search/scroll/${id}?scroll=1m`),
      () => request<ScrollBody>(`${node.url}/_search/scroll/${id}`, { method: 'POST' }),
      () => request<ScrollBody>(`${node.url}/sc/_search/scroll`, { body: { scroll: '2m', scroll_id: id } }),
      () => request<ScrollBody>(`${node.url}/_search/scroll?scroll=1m`, { body: id, headers: { 'content-type': 'text/plain' } }),
    ];
    const seen = seqs(first);
    for (const form of forms) {
      const page = await form();
      assert.equal(page.status, 200, JSON.stringify(page.body));
      seen.push(...seqs(page));
    }
    assert.deepEqual(seen, [...Array(30).keys()]);
    await clear({ scroll_id: id });
  });

  it('answers totals as a number on continuation with rest_total_hits_as_int', async () => {
    const first = await open('/sc/_search?scroll=1m&size=5&rest_total_hits_as_int=true');
    assert.equal(first.body.hits.total, 30);
    const page = await request<ScrollBody>(`${node.url}/_search/scroll?rest_total_hits_as_int=true`, { body: { scroll_id: first.body._scroll_id } });
    assert.equal(page.body.hits.total, 30);
    await clear({ scroll_id: first.body._scroll_id });
  });

  it('keeps its view while documents arrive and memtables flush', async () => {
    await bulkIndex(node.url, 'sc-live', docs(0, 40));
    const first = await open('/sc-live/_search?scroll=1m', { size: 10, sort: ['_doc'] });
    await bulkIndex(node.url, 'sc-live', docs(1000, 25));
    await node.engine.flush(['sc-live']);
    await bulkIndex(node.url, 'sc-live', docs(2000, 25));
    const seen = seqs(first);
    for (let page = await next(first.body._scroll_id); page.body.hits.hits.length > 0; page = await next(first.body._scroll_id)) {
      assert.deepEqual(page.body.hits.total, { value: 40, relation: 'eq' });
      seen.push(...seqs(page));
    }
    assert.deepEqual(seen, [...Array(40).keys()]);
    await clear({ scroll_id: first.body._scroll_id });
  });

  it('survives the merge and the release of an idle index (segment files replaced, closed and reopened)', async () => {
    await bulkIndex(node.url, 'sc-idle', docs(0, 20));
    await node.engine.flush(['sc-idle']);
    const first = await open('/sc-idle/_search?scroll=1m', { size: 8, sort: [{ seq: 'asc' }] });
    const later = Date.now() + 3_600_000;
    // first the quick flushed file is merged into a compact one, then the index is released
    assert.deepEqual(node.engine.releaseIdle(later), []);
    await node.engine.compactionIdle();
    assert.deepEqual(node.engine.shard('sc-idle')!.segmentRecords().map((r) => r.level), [1]);
    assert.deepEqual(node.engine.releaseIdle(later).includes('sc-idle'), true);
    const second = await next(first.body._scroll_id);
    assert.equal(second.status, 200, JSON.stringify(second.body));
    const third = await next(first.body._scroll_id);
    assert.deepEqual([...seqs(first), ...seqs(second), ...seqs(third)], [...Array(20).keys()]);
    await clear({ scroll_id: first.body._scroll_id });
  });

  it('answers aggregations with the first page only, as Elasticsearch does', async () => {
    const first = await open('/sc/_search?scroll=1m', { size: 10, aggs: { kinds: { terms: { field: 'kind' } } } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.ok('aggregations' in first.body);
    const page = await next(first.body._scroll_id);
    assert.equal(page.body.hits.hits.length, 10);
    assert.ok(!('aggregations' in page.body));
    await clear({ scroll_id: first.body._scroll_id });
  });

  it('clears by body, by path, and _all, answering 404 when nothing was freed', async () => {
    const a = (await open('/sc/_search?scroll=1m&size=1')).body._scroll_id;
    const b = (await open('/sc/_search?scroll=1m&size=1')).body._scroll_id;
    const c = (await open('/sc/_search?scroll=1m&size=1')).body._scroll_id;
    assert.deepEqual((await clear({ scroll_id: [a] })).body, { succeeded: true, num_freed: 1 });
    const again = await clear({ scroll_id: [a] });
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, { succeeded: true, num_freed: 0 });
    assert.deepEqual((await clear(undefined, `/_search/scroll/${b}`)).body, { succeeded: true, num_freed: 1 });
    const missing = await next(a);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error!.type, 'search_context_missing_exception');
    assert.equal((await next(c)).status, 200);
    assert.deepEqual((await clear({ scroll_id: '_all' })).body, { succeeded: true, num_freed: 1 });
    assert.equal((await next(c)).status, 404);
  });

  it('answers unknown, expired and malformed ids', async () => {
    const unknown = await next('A'.repeat(32));
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error!.type, 'search_context_missing_exception');
    const malformed = await next('not/a scroll id');
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.error!.reason, /Cannot parse scroll id/);
    assert.equal((await clear({ scroll_id: ['bad id'] })).status, 400);
    assert.equal((await clear({})).status, 400);
    const noId = await request<ScrollBody>(`${node.url}/_search/scroll`, { body: { scroll: '1m' } });
    assert.equal(noId.status, 400);
    assert.match(noId.body.error!.reason, /scrollId is missing/);
    const unknownKey = await request<ScrollBody>(`${node.url}/_search/scroll`, { body: { scroll_id: 'A'.repeat(32), size: 3 } });
    assert.equal(unknownKey.status, 400);

    const short = await open('/sc/_search?scroll=100ms&size=1');
    await new Promise((r) => setTimeout(r, 250));
    const expired = await next(short.body._scroll_id);
    assert.equal(expired.status, 404);
    assert.equal(expired.body.error!.type, 'search_context_missing_exception');
  });

  it('validates a search that opens a scroll as Elasticsearch does', async () => {
    const cases: Array<[string, object, RegExp]> = [
      ['/sc/_search?scroll=1m', { from: 5 }, /using \[from\] is not allowed in a scroll context/],
      ['/sc/_search?scroll=1m', { size: 0 }, /\[size\] cannot be \[0\] in a scroll context/],
      ['/sc/_search?scroll=1m', { track_total_hits: false }, /disabling \[track_total_hits\]/],
      ['/sc/_search?scroll=1m', { search_after: [1], sort: ['seq'] }, /search_after/],
      ['/sc/_search?scroll=60', {}, /unit is missing or unrecognized/],
      ['/sc/_search?scroll=2d', {}, /Keep alive for request \(2d\) is too large/],
    ];
    for (const [path, body, reason] of cases) {
      const res = await open(path, body);
      assert.equal(res.status, 400, path + JSON.stringify(body));
      assert.match(res.body.error!.reason, reason);
    }
  });

  it('ends a scroll whose index was deleted', async () => {
    await bulkIndex(node.url, 'sc-gone', docs(0, 10));
    const first = await open('/sc-gone/_search?scroll=1m&size=2');
    await node.engine.deleteIndex('sc-gone');
    const res = await next(first.body._scroll_id);
    assert.equal(res.status, 404);
    assert.equal(res.body.error!.type, 'search_context_missing_exception');
  });

  it('refuses more open scrolls than SVC_MAX_OPEN_SCROLLS with 429 until one is cleared', async () => {
    await clear({ scroll_id: '_all' });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await open('/sc/_search?scroll=1m&size=1')).body._scroll_id);
    const over = await open('/sc/_search?scroll=1m&size=1');
    assert.equal(over.status, 429);
    assert.match(over.body.error!.reason, /Trying to create too many scroll contexts/);
    assert.equal((await request(`${node.url}/sc/_search?size=1`)).status, 200, 'plain searches are not limited');
    await clear({ scroll_id: ids[0] });
    assert.equal((await open('/sc/_search?scroll=1m&size=1')).status, 200);
    await clear({ scroll_id: '_all' });
  });
});

describe('scroll over 25,000 documents while writes continue', () => {
  let node: TestNode;
  const TOTAL = 25_000;
  before(async () => {
    // small memtables: flushes happen while loading and while scrolling
    node = await startTestNode({ SVC_MEMTABLE_MAX_BYTES: String(2 * 1024 * 1024) });
    for (let from = 0; from < TOTAL; from += 5000) await bulkFast(node.url, 'big', docs(from, 5000));
  });
  after(async () => {
    await node.destroy();
  });

  it('sees every document that existed at the start exactly once, and none written later', async () => {
    const byDefault = await request<ScrollBody>(`${node.url}/big/_search?scroll=1m`, { body: { size: 1000 } });
    const byKind = await request<ScrollBody>(`${node.url}/big/_search?scroll=1m`, { body: { size: 2500, sort: [{ kind: 'asc' }] } });
    assert.equal(byDefault.status, 200);
    assert.equal(byKind.status, 200);

    let writing = true;
    let written = TOTAL;
    const writer = (async () => {
      while (writing) {
        await bulkFast(node.url, 'big', docs(written, 500));
        written += 500;
      }
    })();

    const drain = async (first: ScrollBody, onPage: (n: number) => Promise<void>) => {
      const counts = new Uint8Array(TOTAL);
      let late = 0;
      let pages = 0;
      const take = (body: ScrollBody) => {
        for (const h of body.hits.hits) {
          if (h._source.seq >= TOTAL) late++;
          else counts[h._source.seq]!++;
        }
      };
      take(first);
      let previousKind = '';
      for (;;) {
        const page = await request<ScrollBody>(`${node.url}/_search/scroll`, { body: { scroll: '1m', scroll_id: first._scroll_id } });
        assert.equal(page.status, 200, JSON.stringify(page.body).slice(0, 300));
        assert.deepEqual(page.body.hits.total, { value: TOTAL, relation: 'eq' });
        if (page.body.hits.hits.length === 0) break;
        for (const h of page.body.hits.hits) {
          if (h.sort !== undefined && typeof h.sort[0] === 'string') {
            assert.ok(h.sort[0] >= previousKind, 'pages follow the sort');
            previousKind = h.sort[0];
          }
        }
        take(page.body);
        await onPage(++pages);
      }
      return { counts, late };
    };

    const a = await drain(byDefault.body, async (page) => {
      // moves memtables into segment files under the scroll
      if (page === 5 || page === 15) await node.engine.flush(['big']);
    });
    const b = await drain(byKind.body, async () => undefined);
    writing = false;
    await writer;

    for (const { counts, late } of [a, b]) {
      assert.equal(late, 0, 'no document written after the scroll opened');
      const missing = counts.findIndex((c) => c !== 1);
      assert.equal(missing, -1, `document ${missing} seen ${counts[missing]} times`);
    }
    assert.ok(written > TOTAL, 'writes went on during the scroll');
    assert.ok(node.engine.shard('big')!.segmentRecords().length > 1, 'memtables were flushed into segment files');
    const now = await request<{ count: number }>(`${node.url}/big/_count`);
    assert.equal(now.body.count, written);
  });
});

describe('scroll ownership with access control on', () => {
  let node: TestNode;
  let keys: ReadersNode['keys'];
  const auth = bearer;

  before(async () => {
    ({ node, keys } = await startNodeWithTwoReaders('scroll-owner-bootstrap', ['owned-*']));
    const lines: unknown[] = [];
    for (const d of docs(0, 12)) lines.push({ index: { _index: 'owned-logs' } }, d);
    const bulk = await request(`${node.url}/_bulk`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson', ...auth(keys.admin) } });
    assert.equal(bulk.status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it('lets only the actor that opened a scroll continue or clear it', async () => {
    const opened = await request<ScrollBody>(`${node.url}/owned-logs/_search?scroll=1m&size=5`, { body: {}, headers: auth(keys.alice) });
    assert.equal(opened.status, 200);
    const id = opened.body._scroll_id;

    const byBob = await request<ScrollBody>(`${node.url}/_search/scroll`, { body: { scroll_id: id }, headers: auth(keys.bob) });
    assert.equal(byBob.status, 404);
    assert.equal(byBob.body.error!.type, 'search_context_missing_exception');
    const bobClears = await request<{ num_freed: number }>(`${node.url}/_search/scroll`, { method: 'DELETE', body: { scroll_id: '_all' }, headers: auth(keys.bob) });
    assert.equal(bobClears.body.num_freed, 0);
    assert.equal((await request(`${node.url}/_search/scroll/${id}`, { method: 'DELETE', headers: auth(keys.bob) })).status, 404);
    assert.equal((await request(`${node.url}/_search/scroll`, { body: { scroll_id: id } })).status, 401);

    const byAlice = await request<ScrollBody>(`${node.url}/_search/scroll`, { body: { scroll_id: id }, headers: auth(keys.alice) });
    assert.equal(byAlice.status, 200);
    assert.equal(byAlice.body.hits.hits.length, 5);
    const aliceClears = await request<{ num_freed: number }>(`${node.url}/_search/scroll`, { method: 'DELETE', body: { scroll_id: [id] }, headers: auth(keys.alice) });
    assert.equal(aliceClears.body.num_freed, 1);
  });

  it('refuses to open a scroll on an index the actor may not read', async () => {
    const res = await request<ScrollBody>(`${node.url}/secret/_search?scroll=1m`, { body: {}, headers: auth(keys.alice) });
    assert.equal(res.status, 403);
  });
});

describe('concurrent flushes', () => {
  it(
    'of two indexes both succeed',
    async () => {
      for (let round = 0; round < 4; round++) {
        const node = await startTestNode();
        try {
          for (let k = 0; k < 3; k++) {
            await bulkIndex(node.url, 'race-a', [{ _line: 'a' }]);
            await bulkIndex(node.url, 'race-b', [{ _line: 'b' }]);
          }
          await Promise.all([node.engine.flush(['race-a']), node.engine.flush(['race-b'])]);
        } finally {
          await node.destroy();
        }
      }
    },
  );
});
