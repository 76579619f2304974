import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AggregationService, type AggSpec } from '../../../src/engine/aggregations/index.js';
import { Yielder } from '../../../src/engine/segment/yielder.js';
import { ALL, dataSet, metric, terms, type DataSet } from './data.js';

describe('aggregations in slices', () => {
  let data: DataSet;
  before(async () => {
    data = await dataSet();
  });
  after(() => data.close());

  const aggs: AggSpec[] = [terms('h', 'host', { aggs: [metric('avg', 'a', 'bytes')] }), { type: 'cardinality', name: 'c', field: 'status', precisionThreshold: 100 }];

  it('gives the event loop turns while it runs and answers exactly what one stretch answers', async () => {
    const whole = new AggregationService({ memoryBytes: 16 << 20, maxBuckets: 1000 }).run(data.targets, { query: ALL, aggs });
    const svc = new AggregationService({ memoryBytes: 16 << 20, maxBuckets: 1000 });
    let done = false;
    let turnWhileRunning = false;
    // without a pause the promise settles in microtasks, before any immediate runs
    setImmediate(() => {
      turnWhileRunning = !done;
    });
    const sliced = await svc.runInSlices(data.targets, { query: ALL, aggs }, new Yielder(0));
    done = true;
    assert.equal(turnWhileRunning, true, 'another task ran between two slices');
    assert.deepEqual(sliced, whole);
    assert.equal(svc.breaker.used, svc.cache.bytes, 'the request gave back what it charged');
  });

  it('a failure between slices still gives the memory back', async () => {
    const svc = new AggregationService({ memoryBytes: 16 << 20, maxBuckets: 1000 });
    await assert.rejects(svc.runInSlices(data.targets, { query: ALL, aggs, deadlineMs: Date.now() - 1 }, new Yielder(0)), /time limit/);
    assert.equal(svc.breaker.used, svc.cache.bytes);
  });
});
