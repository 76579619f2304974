/** GET and PUT /{index}/_mapping on a real node. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request, startTestNode, tempDir, type TestNode } from '../support/node.js';
import fs from 'node:fs';

interface ErrorBody {
  error: { type: string; reason: string };
  status: number;
}
type Mappings = Record<string, { mappings: { properties?: Record<string, unknown>; _doc?: unknown } }>;

const json = (body: unknown) => ({ body: body as object, headers: { 'content-type': 'application/json' } });

describe('_mapping', () => {
  const dataDir = tempDir('svc-mapping-');
  let node: TestNode;
  before(async () => {
    node = await startTestNode({}, dataDir);
  });
  after(async () => {
    await node.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports dynamic types in Elasticsearch form, dotted names nested, in order of first occurrence', async () => {
    const res = await bulkIndex(node.url, 'dyn', [
      { zeta: 'word', count: 3, _line: 'a line', http: { status: 200, method: 'GET' } },
      { ratio: 0.5, ok: true, 'http.bytes': 12, when: '2024-01-01T00:00:00Z' },
    ]);
    assert.equal(res.status, 200);
    const mapping = await request<Mappings>(`${node.url}/dyn/_mapping`);
    assert.equal(mapping.status, 200);
    const props = mapping.body.dyn!.mappings.properties!;
    assert.deepEqual(Object.keys(props), ['zeta', 'count', '_line', 'http', '_ts', '_lid', 'ratio', 'ok', 'when']);
    assert.deepEqual(props.zeta, { type: 'keyword' });
    assert.deepEqual(props.count, { type: 'long' });
    assert.deepEqual(props._line, { type: 'text' });
    assert.deepEqual(props.http, { properties: { status: { type: 'long' }, method: { type: 'keyword' }, bytes: { type: 'long' } } });
    assert.deepEqual(props.ratio, { type: 'double' });
    assert.deepEqual(props.ok, { type: 'boolean' });
    assert.equal((props.when as { type: string }).type, 'keyword', 'strings are keywords unless mapped otherwise');
  });

  it('lists at most 1,000 fields, the first ones seen', async () => {
    const doc: Record<string, number> = {};
    for (let i = 0; i < 1100; i++) doc[`f${String(i).padStart(4, '0')}`] = i;
    assert.equal((await bulkIndex(node.url, 'wide', [doc])).status, 200);
    const props = (await request<Mappings>(`${node.url}/wide/_mapping`)).body.wide!.mappings.properties!;
    const names = Object.keys(props);
    assert.equal(names.length, 1000);
    assert.equal(names[0], 'f0000');
    assert.equal(names[999], 'f0999');
  });

  it('covers patterns and every index, an empty index has empty mappings, and include_type_name wraps in _doc', async () => {
    await request(`${node.url}/empty`, { method: 'PUT' });
    const all = await request<Mappings>(`${node.url}/_mapping`);
    assert.ok('dyn' in all.body && 'wide' in all.body && 'empty' in all.body);
    assert.deepEqual(all.body.empty, { mappings: {} });
    const pattern = await request<Mappings>(`${node.url}/dy*,empty/_mapping`);
    assert.deepEqual(Object.keys(pattern.body).sort(), ['dyn', 'empty']);
    const typed = await request<Mappings>(`${node.url}/dyn/_mapping?include_type_name=true`);
    assert.ok(typed.body.dyn!.mappings._doc);
    const missing = await request<ErrorBody>(`${node.url}/nope/_mapping`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, 'index_not_found_exception');
  });

  it('PUT declares explicit types for fields not seen yet; documents then follow them', async () => {
    await request(`${node.url}/typed`, { method: 'PUT' });
    const put = await request(`${node.url}/typed/_mapping`, {
      method: 'PUT',
      ...json({ properties: { code: { type: 'keyword' }, size: { type: 'long' }, took: { type: 'float' }, seen: { type: 'date' }, flag: { type: 'boolean' }, msg: { type: 'text' } } }),
    });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, { acknowledged: true });
    // `code` would be dynamically a long; declared keyword, a number is kept as a keyword
    const bulk = await bulkIndex(node.url, 'typed', [{ code: 404, size: '12', msg: 'Connection Refused' }]);
    assert.equal((bulk.body as { errors: boolean }).errors, false);
    const props = (await request<Mappings>(`${node.url}/typed/_mapping`)).body.typed!.mappings.properties!;
    assert.deepEqual(props.code, { type: 'keyword' });
    assert.deepEqual(props.took, { type: 'double' });
    assert.deepEqual(props.seen, { type: 'date' });
    const found = await request<{ hits: { total: { value: number } } }>(`${node.url}/typed/_search?q=msg:refused`);
    assert.equal(found.body.hits.total.value, 1, 'a text field is searched by words');
    const same = await request(`${node.url}/typed/_mapping`, { method: 'PUT', ...json({ properties: { size: { type: 'long' } } }) });
    assert.equal(same.status, 200, 'declaring the type a field has is fine');
  });

  it('PUT refuses a conflicting change with 400 and changes nothing on any index', async () => {
    await bulkIndex(node.url, 'conflict-a', [{ n: 1 }]);
    await bulkIndex(node.url, 'conflict-b', [{ other: 'x' }]);
    const res = await request<ErrorBody>(`${node.url}/conflict-*/_mapping`, { method: 'PUT', ...json({ properties: { n: { type: 'keyword' }, fresh: { type: 'long' } } }) });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.type, 'illegal_argument_exception');
    assert.equal(res.body.error.reason, 'mapper [n] cannot be changed from type [long] to [keyword]');
    assert.equal(node.engine.shard('conflict-b')!.mapping.fieldType('fresh'), undefined, 'the other index was not changed');
    assert.equal(node.engine.shard('conflict-a')!.mapping.fieldType('fresh'), undefined);

    const unsupported = await request<ErrorBody>(`${node.url}/conflict-a/_mapping`, { method: 'PUT', ...json({ properties: { loc: { type: 'geo_point' } } }) });
    assert.equal(unsupported.status, 400);
    assert.equal(unsupported.body.error.type, 'mapper_parsing_exception');
    const empty = await request<ErrorBody>(`${node.url}/conflict-a/_mapping`, { method: 'PUT' });
    assert.equal(empty.status, 400);
    const missing = await request<ErrorBody>(`${node.url}/nope/_mapping`, { method: 'PUT', ...json({ properties: {} }) });
    assert.equal(missing.status, 404);
  });

  it('an explicit mapping is in the metastore at once and survives a restart', async () => {
    await request(`${node.url}/kept-mapping`, { method: 'PUT' });
    await request(`${node.url}/kept-mapping/_mapping`, { method: 'PUT', ...json({ properties: { answer: { type: 'keyword' } } }) });
    const stored = await node.metastore.indexes.getIndex('kept-mapping');
    assert.deepEqual(stored!.mappings, { fields: [['answer', 'keyword']] });

    await node.close();
    node = await startTestNode({}, dataDir);
    const props = (await request<Mappings>(`${node.url}/kept-mapping/_mapping`)).body['kept-mapping']!.mappings.properties!;
    assert.deepEqual(props, { answer: { type: 'keyword' } });
  });
});
