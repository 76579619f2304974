/** Aliases: POST /_aliases, GET/HEAD /_alias forms, single-alias PUT/DELETE, search and bulk through aliases. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { bulkIndex, request, startTestNode, tempDir, type TestNode } from '../support/node.js';

interface ErrorBody {
  error: { type: string; reason: string } | string;
  status: number;
}
type AliasAnswer = Record<string, { aliases: Record<string, Record<string, unknown>> }>;
interface BulkBody {
  errors: boolean;
  items: Array<{ index: { _index: string; status: number; error?: { type: string; reason: string } } }>;
}

const json = (body: unknown) => ({ body: body as object, headers: { 'content-type': 'application/json' } });
const errorOf = (body: ErrorBody) => body.error as { type: string; reason: string };

describe('aliases', () => {
  const dataDir = tempDir('svc-aliases-');
  let node: TestNode;
  const aliases = (body: unknown) => request<ErrorBody>(`${node.url}/_aliases`, json(body));
  const count = async (target: string) => (await request<{ count: number }>(`${node.url}/${target}/_count`)).body.count;

  before(async () => {
    node = await startTestNode({}, dataDir);
    await bulkIndex(node.url, 'app-1', [{ _line: 'first app line', level: 'info' }]);
    await bulkIndex(node.url, 'app-2', [{ _line: 'second app line', level: 'warn' }, { _line: 'third app line', level: 'info' }]);
    await bulkIndex(node.url, 'db-1', [{ _line: 'database line' }]);
  });
  after(async () => {
    await node.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('adds several aliases in one request with index/indices and alias/aliases, and searches go through them', async () => {
    const res = await aliases({
      actions: [
        { add: { index: 'app-1', alias: 'apps' } },
        { add: { indices: ['app-2'], aliases: ['apps', 'recent'], is_write_index: true } },
        { add: { index: 'db-*', alias: 'stores', filter: { term: { level: 'info' } }, routing: '1' } },
      ],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { acknowledged: true });
    assert.equal(await count('apps'), 3);
    assert.equal(await count('recent'), 2);
    assert.equal(await count('stores'), 1);
    const hits = await request<{ hits: { hits: Array<{ _index: string }> } }>(`${node.url}/apps/_search?q=second`);
    assert.deepEqual(hits.body.hits.hits.map((h) => h._index), ['app-2'], 'hits name the concrete index');
  });

  it('GET /_alias lists every index, with the stored properties', async () => {
    const all = await request<AliasAnswer>(`${node.url}/_alias`);
    assert.equal(all.status, 200);
    assert.deepEqual(all.body, {
      'app-1': { aliases: { apps: {} } },
      'app-2': { aliases: { apps: { is_write_index: true }, recent: { is_write_index: true } } },
      'db-1': { aliases: { stores: { filter: { term: { level: 'info' } }, index_routing: '1', search_routing: '1' } } },
    });
    for (const path of ['/_all/_alias', '/_all/_aliases']) assert.deepEqual((await request(`${node.url}${path}`)).body, all.body, path);
  });

  it('GET by index and by alias name, with patterns', async () => {
    assert.deepEqual((await request(`${node.url}/app-1/_alias`)).body, { 'app-1': { aliases: { apps: {} } } });
    assert.deepEqual((await request(`${node.url}/app-1/_aliases`)).body, { 'app-1': { aliases: { apps: {} } } });
    assert.deepEqual((await request(`${node.url}/_alias/recent`)).body, { 'app-2': { aliases: { recent: { is_write_index: true } } } });
    assert.deepEqual(Object.keys((await request<AliasAnswer>(`${node.url}/_alias/app*`)).body).sort(), ['app-1', 'app-2']);
    assert.deepEqual((await request(`${node.url}/db-1/_alias/apps`)).body, { error: 'alias [apps] missing', status: 404 });
  });

  it('a missing alias is a 404 with the Elasticsearch error string; HEAD answers 200 or 404', async () => {
    const missing = await request<ErrorBody & Record<string, unknown>>(`${node.url}/_alias/nothing`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: 'alias [nothing] missing', status: 404 });
    const partly = await request<Record<string, unknown>>(`${node.url}/_alias/recent,nothing,zilch`);
    assert.equal(partly.status, 404);
    assert.equal(partly.body.error, 'aliases [nothing,zilch] missing');
    assert.ok('app-2' in partly.body, 'what was found is listed as well');
    assert.equal((await fetch(`${node.url}/_alias/apps`, { method: 'HEAD' })).status, 200);
    assert.equal((await fetch(`${node.url}/_alias/nothing`, { method: 'HEAD' })).status, 404);
  });

  it('bulk writes to an alias go to its write index; without one they fail with a clear 400', async () => {
    const toWriteIndex = await request<BulkBody>(`${node.url}/recent/_bulk`, {
      body: '{"index":{}}\n{"_line":"via alias"}\n',
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(toWriteIndex.body.errors, false);
    assert.equal(toWriteIndex.body.items[0]!.index._index, 'app-2');
    assert.equal(await count('app-2'), 3);

    await aliases({ actions: [{ add: { index: 'app-1', alias: 'both' } }, { add: { index: 'app-2', alias: 'both' } }] });
    const ambiguous = await request<BulkBody>(`${node.url}/_bulk`, {
      body: '{"index":{"_index":"both"}}\n{"_line":"where to"}\n{"index":{"_index":"app-1"}}\n{"_line":"direct"}\n',
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(ambiguous.body.errors, true);
    const failed = ambiguous.body.items[0]!.index;
    assert.equal(failed.status, 400);
    assert.equal(failed.error!.type, 'illegal_argument_exception');
    assert.match(failed.error!.reason, /^no write index is defined for alias \[both\]/);
    assert.equal(ambiguous.body.items[1]!.index.status, 201, 'the other item proceeds');

    // one index, explicitly not the write index
    await aliases({ actions: [{ add: { index: 'db-1', alias: 'readonly', is_write_index: false } }] });
    const refused = await request<BulkBody>(`${node.url}/readonly/_bulk`, { body: '{"index":{}}\n{"_line":"x"}\n', headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(refused.body.items[0]!.index.status, 400);
    const single = await request<BulkBody>(`${node.url}/stores/_bulk`, { body: '{"index":{}}\n{"_line":"x"}\n', headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(single.body.items[0]!.index._index, 'db-1', 'an alias of one index writes to it');
  });

  it('actions apply all or none', async () => {
    const res = await aliases({ actions: [{ add: { index: 'app-1', alias: 'never' } }, { remove: { index: 'app-1', alias: 'not-there' } }] });
    assert.equal(res.status, 404);
    assert.equal(errorOf(res.body).type, 'aliases_not_found_exception');
    assert.equal((await fetch(`${node.url}/_alias/never`, { method: 'HEAD' })).status, 404);

    const missingIndex = await aliases({ actions: [{ add: { index: 'app-1', alias: 'never' } }, { add: { index: 'ghost', alias: 'never' } }] });
    assert.equal(missingIndex.status, 404);
    assert.equal(errorOf(missingIndex.body).type, 'index_not_found_exception');
    assert.equal((await fetch(`${node.url}/_alias/never`, { method: 'HEAD' })).status, 404);

    const twoWriters = await aliases({ actions: [{ add: { index: 'app-1', alias: 'recent', is_write_index: true } }] });
    assert.equal(twoWriters.status, 400, 'an alias has at most one write index');
    assert.equal(await count('recent'), 3, 'unchanged');
  });

  it('removes aliases, by name or pattern', async () => {
    await aliases({ actions: [{ add: { index: 'app-1', alias: 'tmp-a' } }, { add: { index: 'app-1', alias: 'tmp-b' } }] });
    assert.equal((await aliases({ actions: [{ remove: { index: 'app-1', alias: 'tmp-a' } }] })).status, 200);
    assert.equal((await fetch(`${node.url}/_alias/tmp-a`, { method: 'HEAD' })).status, 404);
    assert.equal((await aliases({ actions: [{ remove: { index: 'app-*', aliases: ['tmp-*'] } }] })).status, 200);
    assert.equal((await fetch(`${node.url}/_alias/tmp-b`, { method: 'HEAD' })).status, 404);
    const lenient = await aliases({ actions: [{ remove: { index: 'app-1', alias: 'tmp-z', must_exist: false } }] });
    assert.equal(lenient.status, 200);
  });

  it('refuses malformed actions and names that clash with indexes', async () => {
    assert.equal(errorOf((await aliases({ actions: [] })).body).type, 'action_request_validation_exception');
    assert.equal(errorOf((await aliases({ actions: [{ add: { alias: 'x' } }] })).body).type, 'action_request_validation_exception');
    assert.equal((await aliases({ actions: [{ add: { index: 'app-1', alias: 'x', colour: 'red' } }] })).status, 400);
    assert.equal((await aliases({ actions: [{ rename: { index: 'app-1', alias: 'x' } }] })).status, 400);
    assert.equal((await aliases({ actions: [{ remove_index: { index: 'app-1' } }] })).status, 400);
    const sameAsIndex = await aliases({ actions: [{ add: { index: 'app-1', alias: 'db-1' } }] });
    assert.equal(sameAsIndex.status, 400);
    assert.equal(errorOf(sameAsIndex.body).type, 'invalid_alias_name_exception');
    const badName = await aliases({ actions: [{ add: { index: 'app-1', alias: '_bad' } }] });
    assert.equal(errorOf(badName.body).type, 'invalid_alias_name_exception');
  });

  it('PUT and DELETE /{index}/_alias/{name}', async () => {
    const put = await request(`${node.url}/app-1,db-1/_alias/single`, { method: 'PUT', ...json({ filter: { match_all: {} } }) });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, { acknowledged: true });
    const view = await request<AliasAnswer>(`${node.url}/_alias/single`);
    assert.deepEqual(Object.keys(view.body).sort(), ['app-1', 'db-1']);
    assert.deepEqual(view.body['app-1']!.aliases.single, { filter: { match_all: {} } });
    assert.equal((await request(`${node.url}/app-1/_aliases/single`, { method: 'DELETE' })).status, 200);
    assert.deepEqual(Object.keys((await request<AliasAnswer>(`${node.url}/_alias/single`)).body), ['db-1']);
    const again = await request<ErrorBody>(`${node.url}/app-1/_alias/single`, { method: 'DELETE' });
    assert.equal(again.status, 404);
  });

  it('aliases survive a restart, and deleting an index drops its aliases', async () => {
    await node.close();
    node = await startTestNode({}, dataDir);
    assert.equal(await count('apps'), 5);
    const write = await request<BulkBody>(`${node.url}/recent/_bulk`, { body: '{"index":{}}\n{"_line":"after restart"}\n', headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(write.body.items[0]!.index._index, 'app-2');
    await request(`${node.url}/app-2`, { method: 'DELETE' });
    assert.equal((await fetch(`${node.url}/_alias/recent`, { method: 'HEAD' })).status, 404);
    assert.equal(await count('apps'), 2, 'the alias still covers the other index');
  });
});
