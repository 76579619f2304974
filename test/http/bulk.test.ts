import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { bulkIndex, ndjson, request, startTestNode, type TestNode } from '../support/node.js';

interface BulkItemBody {
  _index: string;
  _type: string;
  _id: string | null;
  _version?: number;
  result?: string;
  _shards?: { total: number; successful: number; failed: number };
  status: number;
  error?: { type: string; reason: string };
}
interface BulkBody {
  took: number;
  errors: boolean;
  items: Array<Record<string, BulkItemBody>>;
}
interface SearchBody {
  hits: { total: { value: number; relation: string }; hits: Array<{ _index: string; _id: string; _source: Record<string, unknown> }> };
}

describe('_bulk', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ SVC_MAX_BULK_BYTES: String(64 * 1024) });
  });
  after(async () => {
    await node.destroy();
  });

  const count = async (index: string) =>
    (await request<SearchBody>(`${node.url}/${index}/_search?size=0`)).body.hits.total.value;

  it('answers GET / like Elasticsearch 7.10.2 with the product header', async () => {
    const res = await request<{ version: { number: string }; tagline: string; cluster_name: string; name: string; cluster_uuid: string }>(`${node.url}/`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-elastic-product'), 'Elasticsearch');
    assert.equal(res.body.version.number, '7.10.2');
    assert.equal(res.body.tagline, 'You Know, for Search');
    assert.ok(res.body.cluster_name && res.body.name && res.body.cluster_uuid);
  });

  it('creates the index on demand and answers with the seed item shape', async () => {
    const before = Date.now();
    const res = await bulkIndex(node.url, 'app-logs', [{ _line: 'user alice logged in' }, { _line: 'user bob logged out', _ts: 1700000000000 }]);
    assert.equal(res.status, 200);
    const body = res.body as unknown as BulkBody;
    assert.equal(typeof body.took, 'number');
    assert.equal(body.errors, false);
    assert.equal(body.items.length, 2);
    const ids = new Set<string>();
    for (const item of body.items) {
      const r = item.index!;
      assert.equal(r._index, 'app-logs');
      assert.equal(r._type, '_doc');
      assert.match(r._id!, /^\d+$/);
      ids.add(r._id!);
      assert.equal(r._version, 1);
      assert.equal(r.result, 'created');
      assert.deepEqual(r._shards, { total: 1, successful: 1, failed: 0 });
      assert.equal(r.status, 201);
    }
    assert.equal(ids.size, 2);
    assert.ok(BigInt(body.items[0]!.index!._id!) < BigInt(body.items[1]!.index!._id!), 'ids are time-ordered');

    const search = await request<SearchBody>(`${node.url}/app-logs/_search?q=alice`);
    assert.equal(search.body.hits.total.value, 1);
    const src = search.body.hits.hits[0]!._source;
    assert.equal(src._line, 'user alice logged in');
    assert.equal(typeof src._lid, 'number');
    assert.ok((src._ts as number) >= before && (src._ts as number) <= Date.now(), '_ts defaults to the receive time');
    const bob = await request<SearchBody>(`${node.url}/app-logs/_search?q=bob`);
    assert.equal(bob.body.hits.hits[0]!._source._ts, 1700000000000);
  });

  it('accepts the create action and the index in the path, over PUT too', async () => {
    const res = await request<BulkBody>(`${node.url}/path-index/_bulk`, {
      method: 'PUT',
      body: ndjson([{ create: {} }, { _line: 'created through create' }]),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.items[0]!.create!.status, 201);
    assert.equal(res.body.items[0]!.create!._index, 'path-index');
    assert.equal(await count('path-index'), 1);
  });

  it('fails only the bad items and stores the good ones', async () => {
    const res = await request<BulkBody>(`${node.url}/_bulk`, {
      body: ndjson([
        { index: { _index: 'mixed' } },
        { _line: 'good one' },
        { index: { _index: 'Bad_Index' } },
        { _line: 'upper case index name' },
        { index: { _index: 'mixed' } },
        '[1,2,3]',
        { index: { _index: 'mixed' } },
        '{"_line": "broken json',
        { index: { _index: 'mixed' } },
        { _line: 'bad ts', _ts: 'yesterday' },
        { index: { _index: 'mixed' } },
        { _line: 'iso ts', _ts: '2024-03-01T10:00:00Z' },
      ]),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.errors, true);
    const statuses = res.body.items.map((i) => i.index!.status);
    assert.deepEqual(statuses, [201, 400, 400, 400, 400, 201]);
    assert.equal(res.body.items[1]!.index!.error!.type, 'invalid_index_name_exception');
    assert.equal(res.body.items[2]!.index!.error!.type, 'mapper_parsing_exception');
    assert.equal(res.body.items[3]!.index!.error!.type, 'mapper_parsing_exception');
    assert.equal(res.body.items[4]!.index!.error!.type, 'mapper_parsing_exception');
    assert.equal(await count('mixed'), 2);
    const iso = await request<SearchBody>(`${node.url}/mixed/_search?q=iso`);
    assert.equal(iso.body.hits.hits[0]!._source._ts, Date.parse('2024-03-01T10:00:00Z'));
  });

  it('rejects a malformed action line as a whole and stores nothing', async () => {
    for (const bad of ['not json at all', '{"index": {"_index": "atomic"}, "extra": {}}', '{"explode": {"_index": "atomic"}}', '"index"']) {
      const res = await request<{ error: { type: string; reason: string }; status: number }>(`${node.url}/_bulk`, {
        body: ndjson([{ index: { _index: 'atomic' } }, { _line: 'would be stored' }, bad, { _line: 'x' }]),
        headers: { 'content-type': 'application/x-ndjson' },
      });
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.status, 400);
      assert.equal(typeof res.body.error.type, 'string');
      assert.match(res.body.error.reason, /line \[3\]/);
    }
    const missing = await request(`${node.url}/atomic/_search`);
    assert.equal(missing.status, 404);
  });

  it('rejects an action without a document line and an empty body', async () => {
    const res = await request(`${node.url}/_bulk`, { body: ndjson([{ index: { _index: 'tail' } }]), headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(res.status, 400);
    const empty = await request(`${node.url}/_bulk`, { body: '\n', headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(empty.status, 400);
    const noIndex = await request(`${node.url}/_bulk`, { body: ndjson([{ index: {} }, { _line: 'x' }]), headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(noIndex.status, 400);
    assert.equal((noIndex.body as { error: { type: string } }).error.type, 'action_request_validation_exception');
  });

  it('accepts gzip-compressed bodies', async () => {
    const body = zlib.gzipSync(ndjson([{ index: { _index: 'zipped' } }, { _line: 'compressed line' }]));
    const res = await request<BulkBody>(`${node.url}/_bulk`, {
      body,
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.errors, false);
    assert.equal(await count('zipped'), 1);
    const broken = await request(`${node.url}/_bulk`, {
      body: Buffer.from('definitely not gzip'),
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
    });
    assert.equal(broken.status, 400);
  });

  it('answers 413 with an ES error body when the body is over SVC_MAX_BULK_BYTES', async () => {
    const lines: unknown[] = [];
    for (let i = 0; i < 1000; i++) lines.push({ index: { _index: 'huge' } }, { _line: 'x'.repeat(100) });
    const res = await request<{ error: { type: string; reason: string }; status: number }>(`${node.url}/_bulk`, {
      body: ndjson(lines),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(res.status, 413);
    assert.equal(res.body.status, 413);
    assert.equal(res.body.error.type, 'content_too_long_exception');
    // a gzip body that inflates past the limit is refused as well
    const bomb = zlib.gzipSync(Buffer.from(ndjson(lines)));
    const res2 = await request(`${node.url}/_bulk`, {
      body: bomb,
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
    });
    assert.equal(res2.status, 413);
    assert.equal((await request(`${node.url}/huge/_search`)).status, 404);
  });
});
