import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ndjson, request, startTestNode, type TestNode } from '../support/node.js';

type Item = { _index: string; _id: string | null; _version?: number; result?: string; status: number; error?: { type: string; reason: string } };
interface BulkBody {
  errors: boolean;
  items: Array<Record<string, Item>>;
}
interface SearchBody {
  hits: { total: { value: number }; hits: Array<{ _id: string; _source: Record<string, unknown> }> };
  aggregations?: Record<string, { buckets: Array<{ key: string; doc_count: number }> }>;
  _scroll_id?: string;
}
interface GetBody {
  _index: string;
  _type: string;
  _id: string;
  _version?: number;
  _seq_no?: number;
  _primary_term?: number;
  found: boolean;
  _source?: Record<string, unknown>;
}

describe('documents by _id', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(async () => {
    await node.destroy();
  });

  const bulk = async (lines: unknown[]) =>
    (await request<BulkBody>(`${node.url}/_bulk`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } })).body;
  const search = async (index: string, q?: string) =>
    (await request<SearchBody>(`${node.url}/${index}/_search?size=100${q ? `&q=${encodeURIComponent(q)}` : ''}`)).body;
  const count = async (index: string, q?: string) => (await search(index, q)).hits.total.value;

  it('indexes under a given _id, replaces on a second write and counts versions', async () => {
    const first = await request(`${node.url}/docs/_doc/web-1`, { method: 'PUT', body: { _line: 'first version', n: 1 } });
    assert.equal(first.status, 201);
    assert.deepEqual(
      { ...first.body, _seq_no: undefined },
      { _index: 'docs', _type: '_doc', _id: 'web-1', _version: 1, result: 'created', _shards: { total: 1, successful: 1, failed: 0 }, _seq_no: undefined, _primary_term: 1 },
    );
    const second = await request(`${node.url}/docs/_doc/web-1`, { method: 'PUT', body: { _line: 'second version', n: 2 } });
    assert.equal(second.status, 200);
    assert.equal(second.body.result, 'updated');
    assert.equal(second.body._version, 2);

    const got = await request<GetBody>(`${node.url}/docs/_doc/web-1`);
    assert.equal(got.status, 200);
    assert.equal(got.body.found, true);
    assert.equal(got.body._version, 2);
    assert.equal(got.body._primary_term, 1);
    assert.equal(typeof got.body._seq_no, 'number');
    assert.equal(got.body._source!._line, 'second version');
    assert.equal(got.body._source!._id, undefined, 'the identity is not part of _source');
    assert.equal(got.body._source!._version, undefined);

    const hits = (await search('docs')).hits;
    assert.equal(hits.total.value, 1);
    assert.equal(hits.hits[0]!._id, 'web-1');
    assert.equal(hits.hits[0]!._source._line, 'second version');
    assert.equal(await count('docs', 'first'), 0, 'the replaced source is not found');
    const byId = await request<SearchBody>(`${node.url}/docs/_search`, { body: { query: { ids: { values: ['web-1'] } } } });
    assert.equal(byId.body.hits.total.value, 1);
  });

  it('answers not found, HEAD and _source like Elasticsearch', async () => {
    const missing = await request<GetBody>(`${node.url}/docs/_doc/nope`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { _index: 'docs', _type: '_doc', _id: 'nope', found: false });
    const noIndex = await request<{ error: { type: string } }>(`${node.url}/no-such-index/_doc/1`);
    assert.equal(noIndex.status, 404);
    assert.equal(noIndex.body.error.type, 'index_not_found_exception');
    assert.equal((await fetch(`${node.url}/docs/_doc/web-1`, { method: 'HEAD' })).status, 200);
    assert.equal((await fetch(`${node.url}/docs/_doc/nope`, { method: 'HEAD' })).status, 404);
    const source = await request<Record<string, unknown>>(`${node.url}/docs/_source/web-1`);
    assert.equal(source.status, 200);
    assert.equal(source.body._line, 'second version');
    const filtered = await request<GetBody>(`${node.url}/docs/_doc/web-1?_source_includes=n`);
    assert.deepEqual(filtered.body._source, { n: 2 });
  });

  it('_create answers 409 when the _id exists, and POST /_doc generates an id that GET finds', async () => {
    const created = await request(`${node.url}/docs/_create/c-1`, { method: 'PUT', body: { _line: 'created once' } });
    assert.equal(created.status, 201);
    const again = await request<{ error: { type: string; reason: string; index: string; shard: string } ; status: number }>(`${node.url}/docs/_create/c-1`, { method: 'PUT', body: { _line: 'created twice' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.type, 'version_conflict_engine_exception');
    assert.equal(again.body.error.reason, '[c-1]: version conflict, document already exists (current version [1])');
    assert.equal(again.body.error.index, 'docs');
    const opType = await request(`${node.url}/docs/_doc/c-1?op_type=create`, { method: 'PUT', body: { _line: 'created thrice' } });
    assert.equal(opType.status, 409);

    const generated = await request<{ _id: string; result: string }>(`${node.url}/docs/_doc`, { method: 'POST', body: { _line: 'no id given' } });
    assert.equal(generated.status, 201);
    assert.match(generated.body._id, /^\d+$/);
    const got = await request<GetBody>(`${node.url}/docs/_doc/${generated.body._id}`);
    assert.equal(got.body.found, true);
    assert.equal(got.body._source!._line, 'no id given');
    const deleted = await request(`${node.url}/docs/_doc/${generated.body._id}`, { method: 'DELETE' });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.result, 'deleted');
    assert.equal((await request<GetBody>(`${node.url}/docs/_doc/${generated.body._id}`)).status, 404);
    assert.equal(await count('docs', '"no id given"'), 0);
  });

  it('documents with generated ids are found and deleted in flushed segment files and after a merge', async () => {
    const ids: string[] = [];
    for (let round = 0; round < 2; round++) {
      const lines: unknown[] = [];
      for (let i = 0; i < 30; i++) lines.push({ index: { _index: 'gen-ids' } }, { _line: `generated ${round} ${i}`, n: round * 30 + i });
      const res = await bulk(lines);
      assert.equal(res.errors, false);
      ids.push(...res.items.map((it) => String(it.index!._id)));
      assert.equal((await request(`${node.url}/gen-ids/_flush`, { method: 'POST' })).status, 200);
    }
    const numberOf = async (id: string) => {
      const got = await request<GetBody>(`${node.url}/gen-ids/_doc/${id}`);
      return got.status === 404 ? undefined : (got.body._source as { n: number }).n;
    };
    for (let k = 0; k < ids.length; k += 7) assert.equal(await numberOf(ids[k]!), k);
    for (const k of [5, 40]) assert.equal((await request(`${node.url}/gen-ids/_doc/${ids[k]}`, { method: 'DELETE' })).body.result, 'deleted');
    assert.equal(await numberOf(ids[5]!), undefined);
    assert.equal((await request(`${node.url}/gen-ids/_doc/${ids[40]}`, { method: 'DELETE' })).status, 404);
    assert.equal((await request(`${node.url}/gen-ids/_forcemerge?max_num_segments=1`, { method: 'POST' })).status, 200);
    for (const k of [0, 5, 29, 30, 40, 59]) assert.equal(await numberOf(ids[k]!), k === 5 || k === 40 ? undefined : k);
    assert.equal((await request(`${node.url}/gen-ids/_doc/${ids[59]}`, { method: 'DELETE' })).body.result, 'deleted');
    assert.equal(await count('gen-ids'), 57);
  });

  it('a resent bulk batch with ids leaves one copy of each document; create conflicts fail alone', async () => {
    const lines: unknown[] = [];
    for (let i = 0; i < 20; i++) lines.push({ index: { _index: 'resend', _id: `doc-${i}` } }, { _line: `resent line ${i}`, host: `h${i % 3}` });
    const first = await bulk(lines);
    assert.equal(first.errors, false);
    assert.ok(first.items.every((it) => it.index!.status === 201 && it.index!.result === 'created'));
    const second = await bulk(lines);
    assert.equal(second.errors, false);
    assert.ok(second.items.every((it) => it.index!.status === 200 && it.index!.result === 'updated' && it.index!._version === 2));
    assert.equal(await count('resend'), 20);

    const mixed = await bulk([
      { create: { _index: 'resend', _id: 'doc-1' } },
      { _line: 'conflicting create' },
      { create: { _index: 'resend', _id: 'fresh-1' } },
      { _line: 'fresh create' },
      { index: { _index: 'resend' } },
      { _line: 'generated id' },
    ]);
    assert.equal(mixed.errors, true);
    assert.equal(mixed.items[0]!.create!.status, 409);
    assert.equal(mixed.items[0]!.create!._id, 'doc-1');
    assert.equal(mixed.items[0]!.create!.error!.type, 'version_conflict_engine_exception');
    assert.equal(mixed.items[0]!.create!.error!.reason, '[doc-1]: version conflict, document already exists (current version [2])');
    assert.equal(mixed.items[1]!.create!.status, 201);
    assert.equal(mixed.items[2]!.index!.status, 201);
    assert.equal(await count('resend'), 22);
    assert.equal(await count('resend', 'conflicting'), 0);
  });

  it('bulk delete and update act per item and never drop one silently', async () => {
    const res = await bulk([
      { index: { _index: 'ops', _id: 'a' } },
      { _line: 'alpha one', level: 'info', nested: { x: 1, y: 1 } },
      { index: { _index: 'ops', _id: 'b' } },
      { _line: 'beta one', level: 'info' },
      { delete: { _index: 'ops', _id: 'b' } },
      { delete: { _index: 'ops', _id: 'never' } },
      { update: { _index: 'ops', _id: 'a' } },
      { doc: { level: 'warn', nested: { y: 2 } } },
      { update: { _index: 'ops', _id: 'c' } },
      { doc: { _line: 'gamma from doc' }, doc_as_upsert: true },
      { update: { _index: 'ops', _id: 'd' } },
      { doc: { _line: 'delta doc' }, upsert: { _line: 'delta upsert' } },
      { update: { _index: 'ops', _id: 'e' } },
      { doc: { _line: 'missing' } },
      { update: { _index: 'ops', _id: 'a' } },
      { script: { source: 'ctx._source.n += 1' } },
      { update: { _index: 'ops', _id: 'a' } },
      { doc: { level: 'warn' } },
    ]);
    const items = res.items.map((it) => Object.values(it)[0]!);
    assert.equal(res.errors, true);
    assert.deepEqual(
      items.map((it) => [it._id, it.status, it.result ?? it.error!.type]),
      [
        ['a', 201, 'created'],
        ['b', 201, 'created'],
        ['b', 200, 'deleted'],
        ['never', 404, 'not_found'],
        ['a', 200, 'updated'],
        ['c', 201, 'created'],
        ['d', 201, 'created'],
        ['e', 404, 'document_missing_exception'],
        ['a', 400, 'illegal_argument_exception'],
        ['a', 200, 'noop'],
      ],
    );
    assert.match(items[8]!.error!.reason, /scripts are not supported/);
    assert.equal(items[4]!._version, 2);
    const a = (await request<GetBody>(`${node.url}/ops/_doc/a`)).body;
    assert.equal(a._version, 2);
    assert.equal(a._source!.level, 'warn');
    assert.deepEqual(a._source!.nested, { x: 1, y: 2 });
    assert.equal(a._source!._line, 'alpha one');
    assert.equal((await request<GetBody>(`${node.url}/ops/_doc/d`)).body._source!._line, 'delta upsert');
    assert.equal((await request<GetBody>(`${node.url}/ops/_doc/b`)).status, 404);
    assert.equal(await count('ops'), 3);
    assert.equal(await count('ops', 'level:info'), 0);

    const onlyDeletes = await bulk([{ delete: { _index: 'ops', _id: 'never' } }]);
    assert.equal(onlyDeletes.errors, false, 'a delete of a missing document is not an error');

    const updated = await request(`${node.url}/ops/_update/c`, { method: 'POST', body: { doc: { level: 'error' } } });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.result, 'updated');
    const del = await request(`${node.url}/ops/_doc/c`, { method: 'DELETE' });
    assert.equal(del.status, 200);
    assert.equal(del.body._version, 3);
    const again = await request(`${node.url}/ops/_doc/c`, { method: 'DELETE' });
    assert.equal(again.status, 404);
    assert.equal(again.body.result, 'not_found');
  });

  it('_mget answers each document on its own', async () => {
    const res = await request<{ docs: GetBody[] & Array<{ error?: { type: string } }> }>(`${node.url}/_mget`, {
      body: { docs: [{ _index: 'ops', _id: 'a' }, { _index: 'ops', _id: 'b' }, { _index: 'missing-index', _id: '1' }] },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.docs[0]!.found, true);
    assert.equal(res.body.docs[0]!._source!.level, 'warn');
    assert.equal(res.body.docs[1]!.found, false);
    assert.equal(res.body.docs[2]!.error!.type, 'index_not_found_exception');
    const ids = await request<{ docs: GetBody[] }>(`${node.url}/ops/_mget`, { body: { ids: ['a', 'd', 'zz'] } });
    assert.deepEqual(
      ids.body.docs.map((d) => [d._id, d.found]),
      [
        ['a', true],
        ['d', true],
        ['zz', false],
      ],
    );
  });

  it('deleted and replaced documents stay out of searches, aggregations and scrolls after a flush and a force merge', async () => {
    const lines: unknown[] = [];
    for (let i = 0; i < 30; i++) lines.push({ index: { _index: 'lifecycle', _id: `k${i}` } }, { _line: `version one ${i}`, kind: 'old' });
    await bulk(lines);
    await request(`${node.url}/lifecycle/_flush`, { method: 'POST' });
    const replace: unknown[] = [];
    for (let i = 0; i < 10; i++) replace.push({ index: { _index: 'lifecycle', _id: `k${i}` } }, { _line: `version two ${i}`, kind: 'new' });
    for (let i = 10; i < 15; i++) replace.push({ delete: { _index: 'lifecycle', _id: `k${i}` } });
    await bulk(replace);

    const check = async (when: string) => {
      assert.equal(await count('lifecycle'), 25, `count ${when}`);
      assert.equal(await count('lifecycle', 'kind:old'), 15, `old ${when}`);
      assert.equal(await count('lifecycle', 'kind:new'), 10, `new ${when}`);
      assert.equal(await count('lifecycle', 'one'), 15, `replaced sources ${when}`);
      const agg = await request<SearchBody>(`${node.url}/lifecycle/_search`, { body: { size: 0, aggs: { kinds: { terms: { field: 'kind' } } } } });
      assert.deepEqual(
        agg.body.aggregations!.kinds!.buckets.map((b) => [b.key, b.doc_count]).sort(),
        [
          ['new', 10],
          ['old', 15],
        ],
        `aggregation ${when}`,
      );
      const seen = new Set<string>();
      let page = await request<SearchBody>(`${node.url}/lifecycle/_search?scroll=1m`, { body: { size: 7 } });
      while (page.body.hits.hits.length > 0) {
        for (const h of page.body.hits.hits) seen.add(h._id);
        page = await request<SearchBody>(`${node.url}/_search/scroll`, { body: { scroll: '1m', scroll_id: page.body._scroll_id } });
      }
      assert.equal(seen.size, 25, `scroll ${when}`);
      for (let i = 10; i < 15; i++) assert.ok(!seen.has(`k${i}`), `k${i} deleted ${when}`);
    };
    await check('in memory');
    await request(`${node.url}/lifecycle/_flush`, { method: 'POST' });
    await check('after a flush');
    const merged = await request(`${node.url}/lifecycle/_forcemerge`, { method: 'POST' });
    assert.equal(merged.status, 200);
    await check('after a force merge');
    const indexes = await request<Array<{ 'docs.count': string }>>(`${node.url}/_cat/indices/lifecycle?format=json`);
    assert.equal(indexes.body[0]!['docs.count'], '25');
    // replacing again after the merge still leaves one copy
    await bulk([{ index: { _index: 'lifecycle', _id: 'k0' } }, { _line: 'version three 0', kind: 'new' }]);
    assert.equal(await count('lifecycle'), 25);
    assert.equal((await request<GetBody>(`${node.url}/lifecycle/_doc/k0`)).body._version, 3);
  });

  it('a merge of segments whose documents are all deleted leaves an empty index that keeps counting lids', async () => {
    const written = await bulk([{ index: { _index: 'emptied', _id: 'a' } }, { _line: 'one' }, { index: { _index: 'emptied', _id: 'b' } }, { _line: 'two' }]);
    const lastSeqNo = Math.max(...written.items.map((i) => (i.index as Item & { _seq_no: number })._seq_no));
    await request(`${node.url}/emptied/_flush`, { method: 'POST' });
    await bulk([{ delete: { _index: 'emptied', _id: 'a' } }, { delete: { _index: 'emptied', _id: 'b' } }]);
    await request(`${node.url}/emptied/_flush`, { method: 'POST' });
    const merged = await request(`${node.url}/emptied/_forcemerge`, { method: 'POST' });
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    assert.equal(await count('emptied'), 0);
    const next = await bulk([{ index: { _index: 'emptied', _id: 'a' } }, { _line: 'again' }]);
    const item = next.items[0]!.index as Item & { _seq_no: number };
    assert.equal(item.result, 'created');
    assert.ok(item._seq_no > lastSeqNo, 'no _seq_no is handed out twice');
    assert.equal(await count('emptied'), 1);
  });

  it('an aggregation cached over a segment file sees deletes that came after it', async () => {
    const lines: unknown[] = [];
    for (let i = 0; i < 6; i++) lines.push({ index: { _index: 'aggdel', _id: `d${i}` } }, { _line: `doc ${i}`, kind: i < 3 ? 'a' : 'b' });
    await bulk(lines);
    await request(`${node.url}/aggdel/_flush`, { method: 'POST' });
    const kinds = async () => {
      const res = await request<SearchBody>(`${node.url}/aggdel/_search`, { body: { size: 0, aggs: { kinds: { terms: { field: 'kind' } } } } });
      return res.body.aggregations!.kinds!.buckets.map((b) => [b.key, b.doc_count]);
    };
    assert.deepEqual(await kinds(), [['a', 3], ['b', 3]]);
    await bulk([{ delete: { _index: 'aggdel', _id: 'd0' } }, { index: { _index: 'aggdel', _id: 'd3' } }, { _line: 'doc 3 again', kind: 'a' }]);
    assert.deepEqual(await kinds(), [['a', 3], ['b', 2]]);
  });
});
