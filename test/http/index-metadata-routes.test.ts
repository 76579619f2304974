/**
 * Index metadata routes as Elasticsearch 7.10 answers them: `_mappings` (the plural spelling),
 * `GET /_resolve/index/{name}` with patterns, exclusions and `expand_wildcards`, and
 * `_field_caps` by GET and POST over patterns with types merged across indexes.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request } from '../support/node.js';
import { esClientNode } from '../support/es-client-node.js';

interface Resolved {
  indices: Array<{ name: string; aliases?: string[]; attributes: string[] }>;
  aliases: Array<{ name: string; indices: string[] }>;
  data_streams: unknown[];
}
type FieldCaps = { indices: string[]; fields: Record<string, Record<string, { type: string; searchable: boolean; aggregatable: boolean; indices?: string[] }>> };

describe('index metadata routes', () => {
  const es = esClientNode();

  before(async () => {
    const { node } = es;
    for (const [name, type] of [
      ['web-1', 'keyword'],
      ['web-2', 'long'],
      ['db-1', 'keyword'],
    ] as const) {
      const res = await request(`${node.url}/${name}`, { method: 'PUT', body: { mappings: { properties: { code: { type }, host: { properties: { name: { type: 'keyword' } } } } } } });
      assert.equal(res.status, 200);
    }
    await bulkIndex(node.url, 'web-1', [{ code: 'a', host: { name: 'h' } }]);
    const aliased = await request(`${node.url}/_aliases`, {
      body: { actions: [{ add: { index: 'web-1', alias: 'web' } }, { add: { index: 'web-2', alias: 'web' } }, { add: { index: 'db-1', alias: 'db' } }] },
    });
    assert.equal(aliased.status, 200);
  });


  it('_mappings answers as _mapping does, and PUT _mappings adds fields', async () => {
    const singular = await request(`${es.node.url}/web-1/_mapping`);
    const plural = await request(`${es.node.url}/web-1/_mappings`);
    assert.equal(plural.status, 200);
    assert.deepEqual(plural.body, singular.body);
    assert.deepEqual((await request(`${es.node.url}/_mappings`)).body, (await request(`${es.node.url}/_mapping`)).body);
    const put = await request(`${es.node.url}/db-1/_mappings`, { method: 'PUT', body: { properties: { level: { type: 'keyword' } } } });
    assert.equal(put.status, 200);
    const after = await es.client.indices.getMapping({ index: 'db-1' });
    assert.equal(after.body['db-1'].mappings.properties.level.type, 'keyword');
  });

  it('_resolve/index: names, patterns, aliases and exclusions', async () => {
    const res = await request<Resolved>(`${es.node.url}/_resolve/index/web*`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      indices: [
        { name: 'web-1', aliases: ['web'], attributes: ['open'] },
        { name: 'web-2', aliases: ['web'], attributes: ['open'] },
      ],
      aliases: [{ name: 'web', indices: ['web-1', 'web-2'] }],
      data_streams: [],
    });
    const named = await es.client.indices.resolveIndex({ name: 'db-1,db' });
    assert.deepEqual(named.body, {
      indices: [{ name: 'db-1', aliases: ['db'], attributes: ['open'] }],
      aliases: [{ name: 'db', indices: ['db-1'] }],
      data_streams: [],
    });
    const excluded = await request<Resolved>(`${es.node.url}/_resolve/index/*,-web-2,-db`);
    assert.deepEqual(
      excluded.body.indices.map((i) => i.name),
      ['db-1', 'web-1'],
    );
    assert.deepEqual(
      excluded.body.aliases.map((a) => a.name),
      ['web'],
    );
    const nothing = await request<Resolved>(`${es.node.url}/_resolve/index/nomatch*`);
    assert.deepEqual(nothing.body, { indices: [], aliases: [], data_streams: [] });
    const none = await request<Resolved>(`${es.node.url}/_resolve/index/web*?expand_wildcards=none`);
    assert.deepEqual(none.body, { indices: [], aliases: [], data_streams: [] });
    const missing = await request<{ error: { type: string }; status: number }>(`${es.node.url}/_resolve/index/nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, 'index_not_found_exception');
    const bad = await request(`${es.node.url}/_resolve/index/web*?expand_wildcards=sideways`);
    assert.equal(bad.status, 400);
  });

  it('_field_caps by GET and POST over a pattern: one entry per type, indices named when types differ', async () => {
    const viaGet = await request<FieldCaps>(`${es.node.url}/web-*/_field_caps?fields=code,host.*`);
    assert.equal(viaGet.status, 200);
    assert.deepEqual(viaGet.body.indices, ['web-1', 'web-2']);
    assert.deepEqual(viaGet.body.fields.code, {
      keyword: { type: 'keyword', searchable: true, aggregatable: true, indices: ['web-1'] },
      long: { type: 'long', searchable: true, aggregatable: true, indices: ['web-2'] },
    });
    assert.deepEqual(viaGet.body.fields['host.name'], { keyword: { type: 'keyword', searchable: true, aggregatable: true } });
    const viaPost = await es.client.fieldCaps({ index: 'web-*,db-1', body: { fields: ['co*'] } });
    assert.deepEqual(Object.keys(viaPost.body.fields), ['code']);
    assert.deepEqual(viaPost.body.fields.code.keyword.indices, ['db-1', 'web-1']);
    const objects = await request<FieldCaps>(`${es.node.url}/db-1/_field_caps?fields=host`);
    assert.deepEqual(objects.body.fields.host, { object: { type: 'object', searchable: false, aggregatable: false } });
  });
});
