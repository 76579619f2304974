/**
 * `_field_caps` as Kibana's index patterns call it: `GET /<pattern>/_field_caps?fields=*` with
 * `ignore_unavailable=true&allow_no_indices=false` (elastic/kibana
 * src/plugins/data/server/index_patterns/fetcher/lib/es_api.ts, callFieldCapsApi), and through the
 * official client.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@elastic/elasticsearch';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

type Json = Record<string, unknown>;

describe('_field_caps', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
    assert.equal((await bulkIndex(node.url, 'fc-a', [{ _line: 'x', host: 'h', http: { status: 200 }, took: 1.5 }])).status, 200);
    assert.equal((await bulkIndex(node.url, 'fc-b', [{ _line: 'y', host: 'h', http: { status: 'ok' } }])).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  it("Kibana's call: every field with its type, searchable and aggregatable, merged across indexes", async () => {
    const res = await request<{ indices: string[]; fields: Record<string, Json> }>(`${node.url}/fc-*/_field_caps?fields=*&ignore_unavailable=true&allow_no_indices=false`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.indices, ['fc-a', 'fc-b']);
    const f = res.body.fields;
    assert.deepEqual(f._line, { text: { type: 'text', searchable: true, aggregatable: false } });
    assert.deepEqual(f._ts, { date: { type: 'date', searchable: true, aggregatable: true } });
    assert.deepEqual(f._lid, { long: { type: 'long', searchable: true, aggregatable: true } });
    assert.deepEqual(f.host, { keyword: { type: 'keyword', searchable: true, aggregatable: true } });
    assert.deepEqual(f.http, { object: { type: 'object', searchable: false, aggregatable: false } });
    // two types across the indexes: each names its indexes
    assert.deepEqual(f['http.status'], {
      long: { type: 'long', searchable: true, aggregatable: true, indices: ['fc-a'] },
      keyword: { type: 'keyword', searchable: true, aggregatable: true, indices: ['fc-b'] },
    });
    assert.deepEqual(f.took, { double: { type: 'double', searchable: true, aggregatable: true } });
    assert.deepEqual(f._id, { _id: { type: '_id', searchable: true, aggregatable: true } });
    assert.deepEqual(f._source, { _source: { type: '_source', searchable: false, aggregatable: false } });
  });

  it('names, patterns and include_unmapped, through the official client; POST with a body', async () => {
    const client = new Client({ node: node.url });
    try {
      const res = await client.fieldCaps({ index: 'fc-a,fc-b', fields: ['took', 'ht*'], include_unmapped: true });
      assert.deepEqual(Object.keys(res.body.fields).sort(), ['http', 'http.status', 'took']);
      assert.deepEqual(res.body.fields.took, {
        double: { type: 'double', searchable: true, aggregatable: true, indices: ['fc-a'] },
        unmapped: { type: 'unmapped', searchable: false, aggregatable: false, indices: ['fc-b'] },
      });
    } finally {
      await client.close();
    }
    const posted = await request<{ fields: Json }>(`${node.url}/fc-a/_field_caps`, { body: { fields: ['host'] } });
    assert.deepEqual(posted.body.fields, { host: { keyword: { type: 'keyword', searchable: true, aggregatable: true } } });
  });

  it('no fields is a 400; a missing index is a 404 unless ignored; allow_no_indices=false refuses an empty pattern', async () => {
    assert.equal((await request(`${node.url}/fc-a/_field_caps`)).status, 400);
    assert.equal((await request(`${node.url}/nope/_field_caps?fields=*`)).status, 404);
    const ignored = await request<Json>(`${node.url}/nope,fc-a/_field_caps?fields=host&ignore_unavailable=true`);
    assert.deepEqual(ignored.body.indices, ['fc-a']);
    assert.equal((await request(`${node.url}/nothing-*/_field_caps?fields=*&allow_no_indices=false`)).status, 404);
  });
});
