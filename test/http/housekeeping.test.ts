/**
 * An index housekeeping run as Elasticsearch Curator 5 makes it (elastic/curator
 * curator/utils.py get_indices and curator/indexlist.py _get_metadata / _get_index_stats, then
 * the delete_indices action): list every index through `_settings`, read creation dates from
 * `_cluster/state/metadata/<list>`, sizes from `_stats/store,docs`, delete the old ones with one
 * comma list, and list again. Also the template probe of loaders: `PUT` then `HEAD /_template/<name>`.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

type Json = Record<string, unknown>;
const NAMES = ['logstash-2024.01.01', 'logstash-2024.01.02', 'logstash-2024.01.03'];

describe('housekeeping tools', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
    for (const name of NAMES) {
      assert.equal((await bulkIndex(node.url, name, [{ _line: `from ${name}` }])).status, 200);
      // creation dates a millisecond apart at least, so that "oldest" is well defined
      await new Promise((r) => setTimeout(r, 5));
    }
  });
  after(async () => {
    await node.destroy();
  });

  it('Curator: list, read creation dates and sizes, delete the oldest two in one request, list again', async () => {
    const listing = await request<Record<string, Json>>(`${node.url}/_all/_settings?expand_wildcards=open%2Cclosed`);
    assert.equal(listing.status, 200);
    const all = Object.keys(listing.body).sort();
    assert.deepEqual(all, NAMES);

    const state = await request<{ metadata: { indices: Record<string, { state: string; settings: { index: Record<string, string> } }> } }>(
      `${node.url}/_cluster/state/metadata/${all.join(',')}`,
    );
    assert.equal(state.status, 200);
    const created = new Map(Object.entries(state.body.metadata.indices).map(([name, m]) => {
      assert.equal(m.state, 'open');
      assert.equal(m.settings.index.number_of_shards, '1');
      assert.equal(m.settings.index.number_of_replicas, '0');
      return [name, Number(m.settings.index.creation_date)];
    }));
    assert.deepEqual([...created.keys()].sort(), NAMES);
    for (const name of NAMES) {
      // the same creation date through _settings and _cat/indices
      assert.equal(Number((listing.body[name]!.settings as { index: { creation_date: string } }).index.creation_date), created.get(name));
    }
    const cat = await request<Array<Record<string, string>>>(`${node.url}/_cat/indices?format=json&h=index,creation.date&s=creation.date`);
    assert.deepEqual(cat.body.map((r) => [r.index, Number(r['creation.date'])]), NAMES.map((n) => [n, created.get(n)]));

    const stats = await request<{ indices: Record<string, { total: { store: { size_in_bytes: number }; docs: { count: number } } }> }>(
      `${node.url}/${all.join(',')}/_stats/store,docs`,
    );
    for (const name of NAMES) assert.equal(stats.body.indices[name]!.total.docs.count, 1);

    const oldest = [...created].sort((a, b) => a[1] - b[1]).slice(0, 2).map(([name]) => name);
    const deleted = await request(`${node.url}/${oldest.join(',')}?master_timeout=30s`, { method: 'DELETE' });
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { acknowledged: true });
    const after = await request<Json>(`${node.url}/_all/_settings?expand_wildcards=open%2Cclosed`);
    assert.deepEqual(Object.keys(after.body), [NAMES[2]]);
  });

  it('a template just put answers 200 to HEAD; an unknown one 404', async () => {
    const put = await request(`${node.url}/_template/kibana_sample_data_logs`, {
      method: 'PUT',
      body: { index_patterns: ['kibana_sample_data_logs*'], settings: { number_of_shards: 1 }, mappings: { properties: { message: { type: 'text' } } } },
    });
    assert.equal(put.status, 200);
    assert.equal((await fetch(`${node.url}/_template/kibana_sample_data_logs`, { method: 'HEAD' })).status, 200);
    assert.equal((await fetch(`${node.url}/_template/no_such_template`, { method: 'HEAD' })).status, 404);
  });
});
