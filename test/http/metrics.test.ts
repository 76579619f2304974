import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

const SPEC_METRICS = [
  'svc_aggregation_cache_entries_bytes',
  'svc_aggregation_cache_entries_count',
  'svc_compaction_doc_count',
  'svc_compaction_failure_total',
  'svc_compaction_failure',
  'svc_compaction_current_count',
  'svc_delete_file_duration_ns',
  'svc_delete_file_error_count',
  'svc_delete_file_success_count',
  'svc_delete_local_gc_count',
  'svc_delete_local_gc_duration_ns',
  'svc_delete_local_namespaces_try_later_count',
  'svc_delete_local_namespaces_try_later_current_count',
  'svc_delete_update_gc_ranges_count',
  'svc_delete_update_gc_ranges_duration_ns',
  'svc_delete_vacuum_namespace_visit_count',
  'svc_document_field_count',
  'svc_document_token_count',
  'svc_index_bytes',
  'svc_process_resident_bytes',
  'svc_query_queue_duration_ns',
  'svc_query_queued_total',
  'svc_query_tasks_current_count',
  'svc_query_tasks_panicked_total',
  'svc_query_tasks_total',
  'svc_bulk_request_indexed_bytes',
  'svc_eviction_file_total_count',
  'svc_usage_write_bytes',
];

function sample(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  assert.ok(line, `no sample for ${name}`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(async () => {
    await node.destroy();
  });

  it('exposes every metric the spec names, with live values', async () => {
    const docs = Array.from({ length: 40 }, (_, i) => ({ _line: `metric line ${i} with five words`, n: i }));
    assert.equal((await bulkIndex(node.url, 'metered', docs)).status, 200);
    assert.equal((await request(`${node.url}/metered/_search?q=metric`)).status, 200);

    const res = await fetch(`${node.url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
    const text = await res.text();
    for (const name of SPEC_METRICS) assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), `${name} is missing`);
    assert.match(text, /^# TYPE svc_jemalloc_\w+ /m);

    assert.ok(sample(text, 'svc_bulk_request_indexed_bytes') > 0);
    assert.ok(sample(text, 'svc_usage_write_bytes') >= sample(text, 'svc_bulk_request_indexed_bytes'));
    assert.ok(sample(text, 'svc_query_tasks_total') >= 1);
    assert.ok(sample(text, 'svc_process_resident_bytes') > 1024 * 1024);
    assert.ok(sample(text, 'svc_document_token_count_count') >= 1, 'token counts are observed');
    assert.equal(sample(text, 'svc_document_token_count_sum') / sample(text, 'svc_document_token_count_count'), 6);
    for (const name of ['svc_bulk_request_indexed_bytes', 'svc_usage_write_bytes', 'svc_eviction_file_total_count']) {
      assert.doesNotMatch(text, new RegExp(`^${name}\\{`, 'm'), `${name} carries no labels`);
    }
  });
});
