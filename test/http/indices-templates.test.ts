/** Legacy index templates: PUT, HEAD, GET, DELETE, and their application to new indexes. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

interface ErrorBody {
  error: { type: string; reason: string };
  status: number;
}
type Templates = Record<string, { order: number; version?: number; index_patterns: string[]; settings: Record<string, unknown>; mappings: Record<string, unknown>; aliases: Record<string, unknown> }>;
type Mappings = Record<string, { mappings: { properties?: Record<string, { type?: string; properties?: unknown }> } }>;
type Settings = Record<string, { settings: Record<string, string> }>;

const json = (body: unknown) => ({ body: body as object, headers: { 'content-type': 'application/json' } });

describe('index templates', () => {
  let node: TestNode;
  const put = (name: string, body: unknown, query = '') => request<ErrorBody>(`${node.url}/_template/${name}${query}`, { method: 'PUT', ...json(body) });
  const head = async (name: string) => (await fetch(`${node.url}/_template/${name}`, { method: 'HEAD' })).status;

  before(async () => {
    node = await startTestNode();
  });
  after(async () => {
    await node.destroy();
  });

  it('PUT stores a template; HEAD and GET find it; settings come back normalized', async () => {
    assert.equal(await head('web'), 404);
    const res = await put('web', {
      index_patterns: ['web-*'],
      order: 2,
      version: 7,
      settings: { number_of_shards: 1, 'index.refresh_interval': '10s' },
      mappings: { properties: { status: { type: 'keyword' } } },
      aliases: { 'web-all': {} },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { acknowledged: true });
    assert.equal(await head('web'), 200);
    const got = await request<Templates>(`${node.url}/_template/web`);
    assert.deepEqual(got.body, {
      web: {
        order: 2,
        version: 7,
        index_patterns: ['web-*'],
        settings: { index: { number_of_shards: '1', refresh_interval: '10s' } },
        mappings: { properties: { status: { type: 'keyword' } } },
        aliases: { 'web-all': {} },
      },
    });
    const flat = await request<Templates>(`${node.url}/_template/web?flat_settings=true`);
    assert.deepEqual(flat.body.web!.settings, { 'index.number_of_shards': '1', 'index.refresh_interval': '10s' });
  });

  it('GET lists all, lists and patterns; a name without match is a 404 with {}', async () => {
    await put('api', { index_patterns: 'api-*' });
    assert.deepEqual(Object.keys((await request(`${node.url}/_template`)).body).sort(), ['api', 'web']);
    assert.deepEqual(Object.keys((await request(`${node.url}/_template/api,web`)).body).sort(), ['api', 'web']);
    assert.deepEqual(Object.keys((await request(`${node.url}/_template/a*`)).body), ['api']);
    assert.deepEqual((await request<Templates>(`${node.url}/_template/api`)).body.api!.index_patterns, ['api-*'], 'a single pattern string is a list');
    const missing = await request(`${node.url}/_template/nothing`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, {});
  });

  it('create=true refuses to replace; plain PUT replaces', async () => {
    const refused = await put('api', { index_patterns: ['api-v2-*'] }, '?create=true');
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.reason, /already exists/);
    assert.equal((await put('api', { index_patterns: ['api-v2-*'] })).status, 200);
    assert.deepEqual((await request<Templates>(`${node.url}/_template/api`)).body.api!.index_patterns, ['api-v2-*']);
  });

  it('refuses invalid templates', async () => {
    const noPatterns = await put('empty', { order: 1 });
    assert.equal(noPatterns.status, 400);
    assert.equal(noPatterns.body.error.type, 'action_request_validation_exception');
    const unknown = await put('odd', { index_patterns: ['x-*'], colour: 'red' });
    assert.equal(unknown.body.error.type, 'parse_exception');
    const upper = await put('Upper', { index_patterns: ['x-*'] });
    assert.equal(upper.body.error.type, 'invalid_index_template_exception');
    assert.match(upper.body.error.reason, /name must be lower cased/);
    const badSettings = await put('bad', { index_patterns: ['x-*'], settings: 'fast' });
    assert.equal(badSettings.status, 400);
    const badMapping = await put('bad', { index_patterns: ['x-*'], mappings: { properties: { a: 'keyword' } } });
    assert.equal(badMapping.body.error.type, 'mapper_parsing_exception');
    assert.equal(await head('bad'), 404);
  });

  it('an index created by a write gets the matching templates, merged by order, with their aliases', async () => {
    await put('logs-base', {
      index_patterns: ['logs-*'],
      order: 0,
      settings: { 'index.refresh_interval': '5s', 'index.codec': 'default' },
      mappings: { properties: { level: { type: 'keyword' }, code: { type: 'keyword' }, geo: { type: 'geo_point' }, took: { type: 'float' } } },
      aliases: { 'all-logs': {}, '{index}-alias': {} },
    });
    await put('logs-special', {
      index_patterns: ['logs-special-*'],
      order: 5,
      settings: { 'index.refresh_interval': '30s' },
      mappings: { properties: { code: { type: 'long' }, message: { type: 'text' } } },
    });
    await put('other', { index_patterns: ['metrics-*'], mappings: { properties: { level: { type: 'long' } } } });

    const bulk = await bulkIndex(node.url, 'logs-special-1', [{ code: 42, message: 'Disk Full on host', level: 'error', extra: 1 }]);
    assert.equal((bulk.body as { errors: boolean }).errors, false);
    const props = (await request<Mappings>(`${node.url}/logs-special-1/_mapping`)).body['logs-special-1']!.mappings.properties!;
    assert.deepEqual(Object.keys(props).slice(0, 4), ['level', 'code', 'took', 'message'], 'template fields come first, in template order');
    assert.equal(props.code!.type, 'long', 'the higher order wins');
    assert.equal(props.took!.type, 'double', 'float is indexed as double');
    assert.equal(props.geo, undefined, 'types we cannot index are skipped in templates');
    const settings = (await request<Settings>(`${node.url}/logs-special-1/_settings?flat_settings=true`)).body['logs-special-1']!.settings;
    assert.equal(settings['index.refresh_interval'], '30s');
    assert.equal(settings['index.codec'], 'default');
    assert.equal((await request<{ count: number }>(`${node.url}/all-logs/_count`)).body.count, 1);
    assert.equal((await fetch(`${node.url}/_alias/logs-special-1-alias`, { method: 'HEAD' })).status, 200, '{index} in an alias name');
    const words = await request<{ hits: { total: { value: number } } }>(`${node.url}/logs-special-1/_search?q=message:disk`);
    assert.equal(words.body.hits.total.value, 1, 'message is text, as the template said');
  });

  it('PUT /{index} applies the templates too, the request winning over them', async () => {
    const res = await request(`${node.url}/logs-put`, {
      method: 'PUT',
      ...json({ settings: { 'index.refresh_interval': '2s' }, mappings: { properties: { level: { type: 'text' } } }, aliases: { 'put-alias': {} } }),
    });
    assert.equal(res.status, 200);
    const props = (await request<Mappings>(`${node.url}/logs-put/_mapping`)).body['logs-put']!.mappings.properties!;
    assert.equal(props.level!.type, 'text');
    assert.equal(props.code!.type, 'keyword');
    const settings = (await request<Settings>(`${node.url}/logs-put/_settings?flat_settings=true`)).body['logs-put']!.settings;
    assert.equal(settings['index.refresh_interval'], '2s');
    const aliases = await request<Record<string, { aliases: Record<string, unknown> }>>(`${node.url}/logs-put/_alias`);
    assert.deepEqual(Object.keys(aliases.body['logs-put']!.aliases).sort(), ['all-logs', 'logs-put-alias', 'put-alias']);
  });

  it('a template field that cannot be declared is left to dynamic typing, not fatal to writes', async () => {
    await put('odd-fields', { index_patterns: ['odd-*'], mappings: { properties: { _ts: { type: 'keyword' }, _id: { type: 'keyword' }, ok: { type: 'long' } } } });
    const bulk = await bulkIndex(node.url, 'odd-1', [{ _line: 'still written', ok: 1 }]);
    assert.equal((bulk.body as { errors: boolean }).errors, false);
    const props = (await request<Mappings>(`${node.url}/odd-1/_mapping`)).body['odd-1']!.mappings.properties!;
    assert.equal(props._ts!.type, 'date');
    assert.equal(props.ok!.type, 'long');
    assert.equal((await request(`${node.url}/odd-2`, { method: 'PUT' })).status, 200, 'PUT /{index} skips them too');
    const own = await request<ErrorBody>(`${node.url}/odd-3`, { method: 'PUT', ...json({ mappings: { properties: { _ts: { type: 'keyword' } } } }) });
    assert.equal(own.status, 400, "the request's own field is an error");
    assert.equal(own.body.error.reason, 'mapper [_ts] cannot be changed from type [date] to [keyword]');
  });

  it('a template added later does not change existing indexes', async () => {
    await bulkIndex(node.url, 'late-1', [{ v: 'x' }]);
    await put('late', { index_patterns: ['late-*'], mappings: { properties: { v: { type: 'long' } } } });
    const props = (await request<Mappings>(`${node.url}/late-1/_mapping`)).body['late-1']!.mappings.properties!;
    assert.equal(props.v!.type, 'keyword');
  });

  it('DELETE removes a template; a missing one is a 404', async () => {
    assert.deepEqual((await request(`${node.url}/_template/api`, { method: 'DELETE' })).body, { acknowledged: true });
    assert.equal(await head('api'), 404);
    const missing = await request<ErrorBody>(`${node.url}/_template/api`, { method: 'DELETE' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, 'index_template_missing_exception');
  });
});
