import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ObjectNotFoundError } from '../../src/common/errors.js';
import { Metrics } from '../../src/observability/index.js';
import {
  LocalObjectStore,
  MetricsObjectStore,
  objectMetricsHooks,
  ObjectStoreRequestError,
  type ObjectStoreOp,
} from '../../src/storage/index.js';
import { FlakyObjectStore } from './flaky-object-store.js';

const root = mkdtempSync(join(tmpdir(), 'svc-store-metrics-'));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

async function metricValue(metrics: Metrics, name: string, suffix = ''): Promise<number> {
  const json = await metrics.registry.getMetricsAsJSON();
  const metric = json.find((m) => m.name === name);
  assert.ok(metric, `no metric ${name}`);
  const value = metric.values.find((v) => (v as { metricName?: string }).metricName === undefined || (v as { metricName?: string }).metricName === name + suffix);
  return value?.value ?? 0;
}

describe('metrics object store', () => {
  it('reports each operation once with its outcome and object count', async () => {
    const events: Array<[ObjectStoreOp, boolean, number]> = [];
    const durations: number[] = [];
    const store = new MetricsObjectStore(new LocalObjectStore(join(root, `s-${++counter}`)), {
      onRequest(op, durationNs, ok, objectCount) {
        events.push([op, ok, objectCount]);
        durations.push(durationNs);
      },
    });
    await store.put('a', Buffer.from('1'));
    await assert.rejects(store.get('missing'), ObjectNotFoundError);
    await store.deleteMany(['a', 'b', 'c']);
    assert.deepEqual(events, [
      ['put', true, 1],
      ['get', false, 1],
      ['delete_many', true, 3],
    ]);
    assert.ok(durations.every((d) => Number.isInteger(d) && d >= 0));
  });

  it('a failing hook does not fail the operation', async () => {
    const store = new MetricsObjectStore(new LocalObjectStore(join(root, `s-${++counter}`)), {
      onRequest() {
        throw new Error('broken hook');
      },
    });
    await store.put('a', Buffer.from('1'));
    assert.equal((await store.get('a')).toString(), '1');
  });

  it('feeds svc_delete_file_success_count, svc_delete_file_error_count and svc_delete_file_duration_ns', async () => {
    const metrics = new Metrics();
    const flaky = new FlakyObjectStore(new LocalObjectStore(join(root, `s-${++counter}`)));
    const store = new MetricsObjectStore(flaky, objectMetricsHooks(metrics));
    await store.put('a', Buffer.from('1'));
    await store.delete('a');
    await store.deleteMany(['b', 'c']);
    flaky.failNext('delete', new ObjectStoreRequestError('delete', 'd', '403', false, 403));
    await assert.rejects(store.delete('d'), ObjectStoreRequestError);
    await store.get('missing').catch(() => undefined);

    assert.equal(await metricValue(metrics, 'svc_delete_file_success_count'), 3);
    assert.equal(await metricValue(metrics, 'svc_delete_file_error_count'), 1);
    assert.equal(await metricValue(metrics, 'svc_delete_file_duration_ns', '_count'), 3);
  });
});
