/** Access control on the index API: index-level rules in handlers, monitor and open endpoints. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { unmappedRoutesOf } from '../../src/http/auth-hook.js';
import { ndjson, request, startTestNode, type TestNode } from '../support/node.js';

const BOOTSTRAP = 'bootstrap-for-index-api-tests';
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

describe('index API under RBAC', () => {
  let node: TestNode;
  let admin = '';
  let reader = '';
  let writer = '';
  let nobody = '';
  const as = (key: string, path: string, init: { method?: string; body?: object } = {}) =>
    request<Record<string, unknown>>(`${node.url}${path}`, { ...init, headers: { ...auth(key), ...(init.body ? { 'content-type': 'application/json' } : {}) } });
  const statusOf = async (key: string, path: string, method = 'GET') => (await fetch(`${node.url}${path}`, { method, headers: auth(key) })).status;

  async function newKey(name: string, database: string[], indexes: Array<{ names: string[]; permissions: string[] }>): Promise<string> {
    assert.equal((await as(admin, '/v1/roles', { body: { name, database, indexes } })).status, 200);
    const res = await request<{ api_key: string }>(`${node.url}/v1/api_keys`, { body: { name, role: name }, headers: auth(admin) });
    return res.body.api_key;
  }

  before(async () => {
    node = await startTestNode({ SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: BOOTSTRAP });
    const role = { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] };
    await request(`${node.url}/v1/roles`, { body: role, headers: auth(BOOTSTRAP) });
    admin = (await request<{ api_key: string }>(`${node.url}/v1/api_keys`, { body: { name: 'admin', role: 'admin' }, headers: auth(BOOTSTRAP) })).body.api_key;
    const bulk = ndjson([{ index: { _index: 'logs-a' } }, { _line: 'a' }, { index: { _index: 'logs-b' } }, { _line: 'b' }, { index: { _index: 'secrets' } }, { _line: 's' }]);
    await request(`${node.url}/_bulk`, { body: bulk, headers: { ...auth(admin), 'content-type': 'application/x-ndjson' } });
    reader = await newKey('logs-reader', [], [{ names: ['logs-*'], permissions: ['read'] }]);
    writer = await newKey('logs-writer', [], [{ names: ['logs-*'], permissions: ['read', 'write'] }]);
    nobody = await newKey('nobody', [], []);
  });
  after(async () => {
    await node.destroy();
  });

  it('every route of the index API has a row in the permission table', () => {
    assert.deepEqual(unmappedRoutesOf(node.app), []);
  });

  it('GET /_cat/indices is open to any credential and lists only readable indexes', async () => {
    const rows = async (key: string) => ((await as(key, '/_cat/indices?format=json&h=index&s=index')).body as unknown as Array<{ index: string }>).map((r) => r.index);
    assert.deepEqual(await rows(admin), ['logs-a', 'logs-b', 'secrets']);
    assert.deepEqual(await rows(reader), ['logs-a', 'logs-b']);
    assert.deepEqual(await rows(nobody), []);
    assert.equal(await statusOf(reader, '/_cat/indices/secrets'), 403);
    assert.equal((await fetch(`${node.url}/_cat/indices`)).status, 401);
  });

  it('read endpoints on a named unreadable index are 403, patterns cover only readable ones', async () => {
    for (const path of ['/secrets', '/secrets/_mapping', '/secrets/_settings', '/secrets/_stats', '/secrets/_alias', '/missing-secret/_mapping']) {
      assert.equal(await statusOf(reader, path), 403, path);
    }
    assert.equal(await statusOf(reader, '/secrets', 'HEAD'), 403);
    assert.deepEqual(Object.keys((await as(reader, '/*/_mapping')).body).sort(), ['logs-a', 'logs-b']);
    assert.deepEqual(Object.keys((await as(reader, '/_settings')).body).sort(), ['logs-a', 'logs-b']);
    assert.deepEqual(Object.keys((await as(reader, '/_stats')).body.indices as object).sort(), ['logs-a', 'logs-b']);
    assert.equal(await statusOf(reader, '/logs-a/_mapping'), 200);
  });

  it('writes need write on the index: PUT index, PUT mapping, POST flush', async () => {
    assert.equal((await as(reader, '/logs-new', { method: 'PUT' })).status, 403);
    assert.equal((await as(writer, '/logs-new', { method: 'PUT' })).status, 200);
    assert.equal((await as(writer, '/secrets-2', { method: 'PUT' })).status, 403);
    assert.equal((await as(writer, '/secrets/_mapping', { method: 'PUT', body: { properties: { x: { type: 'long' } } } })).status, 403);
    assert.equal((await as(writer, '/logs-a/_flush', { method: 'POST' })).status, 200);
    assert.equal((await as(reader, '/logs-a/_flush', { method: 'POST' })).status, 403);
    assert.equal((await as(reader, '/logs-a/_flush')).status, 200, 'GET _flush needs read');
  });

  it('DELETE needs delete on the index', async () => {
    assert.equal((await as(writer, '/logs-new', { method: 'DELETE' })).status, 403);
    const deleter = await newKey('logs-deleter', [], [{ names: ['logs-*'], permissions: ['delete'] }]);
    assert.equal((await as(deleter, '/secrets', { method: 'DELETE' })).status, 403);
    assert.equal((await as(deleter, '/logs-new', { method: 'DELETE' })).status, 200);
    // a pattern deletes only what the actor may delete
    assert.equal((await as(deleter, '/*', { method: 'DELETE' })).status, 200);
    assert.equal(await statusOf(admin, '/secrets', 'HEAD'), 200);
    assert.equal(await statusOf(admin, '/logs-a', 'HEAD'), 404);
    const bulk = ndjson([{ index: { _index: 'logs-a' } }, { _line: 'a' }, { index: { _index: 'logs-b' } }, { _line: 'b' }]);
    await request(`${node.url}/_bulk`, { body: bulk, headers: { ...auth(admin), 'content-type': 'application/x-ndjson' } });
  });

  it('aliases need write on both the index and the alias name', async () => {
    const add = (key: string, index: string, alias: string) => as(key, '/_aliases', { body: { actions: [{ add: { index, alias } }] } });
    assert.equal((await add(writer, 'logs-a', 'logs-current')).status, 200);
    assert.equal((await add(writer, 'logs-a', 'current')).status, 403, 'alias name outside the grant');
    assert.equal((await add(writer, 'secrets', 'logs-secret')).status, 403, 'index outside the grant');
    assert.equal((await add(reader, 'logs-a', 'logs-read')).status, 403);
    assert.deepEqual(Object.keys((await as(reader, '/_alias')).body).sort(), ['logs-a', 'logs-b']);
  });

  it('templates need write on their index patterns', async () => {
    const put = (key: string, name: string, patterns: string[]) => as(key, `/_template/${name}`, { method: 'PUT', body: { index_patterns: patterns } });
    assert.equal((await put(writer, 'logs-tpl', ['logs-app-*'])).status, 200);
    assert.equal((await put(writer, 'everything', ['*'])).status, 403);
    assert.equal((await put(writer, 'sneaky', ['logs-*', 'secrets*'])).status, 403);
    assert.equal((await put(reader, 'logs-tpl2', ['logs-x-*'])).status, 403);
    assert.equal(await statusOf(reader, '/_template/logs-tpl', 'HEAD'), 200);
    assert.equal((await put(admin, 'everything', ['*'])).status, 200);
    assert.equal((await as(writer, '/_template/everything', { method: 'DELETE' })).status, 403);
  });

  it('cluster and node endpoints need monitor; _license and _xpack any credential', async () => {
    for (const path of ['/_cat/nodes', '/_cluster/health', '/_cluster/health/logs-a', '/_cluster/settings', '/_cluster/state/metadata', '/_cat/health']) {
      assert.equal(await statusOf(writer, path), 403, path);
      assert.equal(await statusOf(admin, path), 200, path);
    }
    for (const path of ['/_license', '/_xpack']) {
      assert.equal(await statusOf(nobody, path), 200, path);
      assert.equal((await fetch(`${node.url}${path}`)).status, 401, path);
    }
    assert.deepEqual((await as(admin, '/_xpack')).body.features && ((await as(admin, '/_xpack')).body.features as Record<string, unknown>).security, { available: true, enabled: true });
  });
});
