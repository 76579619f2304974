/**
 * The reader cache budget (reader-cache.ts): least recently used entries go first, an entry that
 * cannot fit is not kept, a thread under its share gets room back from one over it, and threads
 * charging one budget together never hold more than it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { ReaderCache, ReaderCacheBudget } from '../../../src/engine/segment/reader-cache.js';
import type { FillerData, FillerReport } from '../../support/reader-cache-filler.js';

const KiB = 1024;

/** entries evicted or refused stay findable until the turn of the event loop ends */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** a cache of its own slot on the budget, as one thread has */
function threadCache(budget: ReaderCacheBudget): ReaderCache {
  return new ReaderCache(budget, budget.acquireSlot());
}

describe('reader cache', () => {
  it('evicts the least recently used entry, across readers, when a new one would pass the budget', async () => {
    const budget = ReaderCacheBudget.create(40 * KiB);
    const cache = threadCache(budget);
    const a = cache.space<string, Uint8Array>();
    const b = cache.space<string, Uint8Array>();
    assert.ok(a.set('x', new Uint8Array(10 * KiB), 10 * KiB));
    assert.ok(b.set('y', new Uint8Array(10 * KiB), 10 * KiB));
    assert.ok(a.set('z', new Uint8Array(10 * KiB), 10 * KiB));
    // x used again: y is now the oldest
    assert.ok(a.get('x') !== undefined);
    assert.ok(b.set('w', new Uint8Array(12 * KiB), 12 * KiB));
    assert.ok(b.get('y') !== undefined, 'an evicted entry is found until the end of the turn');
    await nextTurn();
    assert.equal(b.get('y'), undefined, 'the least recently used entry was evicted');
    assert.ok(a.get('x') !== undefined && a.get('z') !== undefined && b.get('w') !== undefined);
    assert.ok(budget.usedBytes <= budget.limitBytes);
    assert.equal(budget.usedBytes, cache.heldBytes);
  });

  it('counts what an entry holds and gives it back when its reader closes', () => {
    const budget = ReaderCacheBudget.create(1024 * KiB);
    const cache = threadCache(budget);
    const space = cache.space<number, Float64Array>();
    const column = new Float64Array(10_000);
    space.set(1, column, column.byteLength);
    assert.ok(budget.usedBytes >= column.byteLength && budget.usedBytes < column.byteLength + 256);
    space.clear();
    assert.equal(budget.usedBytes, 0);
    assert.equal(space.get(1), undefined);
  });

  it('does not keep an entry larger than the budget (past the current turn), and keeps what it held', async () => {
    const budget = ReaderCacheBudget.create(64 * KiB);
    const cache = threadCache(budget);
    const space = cache.space<string, Uint8Array>();
    assert.ok(space.set('small', new Uint8Array(KiB), KiB));
    const huge = new Uint8Array(100 * KiB);
    assert.equal(space.set('huge', huge, huge.byteLength), false);
    assert.equal(space.get('huge'), huge, 'the search that built it finds it again during its turn');
    assert.ok(budget.usedBytes < 2 * KiB, 'outside the budget');
    await nextTurn();
    assert.equal(space.get('huge'), undefined);
    assert.ok(space.get('small') !== undefined, 'a refused entry pushes nothing out');
  });

  it('an entry that fits no matter what is evicted is not kept; with nothing else held, nothing is', () => {
    const budget = ReaderCacheBudget.create(0);
    const space = threadCache(budget).space<string, Uint8Array>();
    assert.equal(space.set('a', new Uint8Array(1), 1), false);
    assert.equal(budget.usedBytes, 0);
  });

  it('a thread under its share gets room back from a thread that holds more than its share', async () => {
    const budget = ReaderCacheBudget.create(100 * KiB);
    const greedy = threadCache(budget);
    const late = threadCache(budget);
    const g = greedy.space<number, Uint8Array>();
    for (let i = 0; i < 9; i++) assert.ok(g.set(i, new Uint8Array(10 * KiB), 10 * KiB));
    const l = late.space<number, Uint8Array>();
    // no room: the late thread has nothing of its own to evict, and asks the others to give back
    assert.equal(l.set(0, new Uint8Array(20 * KiB), 20 * KiB), false);
    // the greedy thread's next access gives back down to its share (half), oldest first
    assert.ok(g.get(8) !== undefined);
    assert.ok(greedy.heldBytes <= 50 * KiB, `greedy holds ${greedy.heldBytes}`);
    await nextTurn();
    assert.equal(g.get(0), undefined, 'its oldest entries went');
    assert.ok(l.set(0, new Uint8Array(20 * KiB), 20 * KiB), 'the late thread now has room');
    assert.ok(budget.usedBytes <= budget.limitBytes);
  });

  it('a released slot gives back what its thread held', () => {
    const budget = ReaderCacheBudget.create(100 * KiB);
    const slot = budget.acquireSlot();
    const cache = new ReaderCache(budget, slot);
    cache.space<number, Uint8Array>().set(1, new Uint8Array(30 * KiB), 30 * KiB);
    assert.equal(budget.threads, 1);
    budget.releaseSlot(slot);
    assert.equal(budget.usedBytes, 0);
    assert.equal(budget.threads, 0);
  });

  it('threads filling their caches at once never hold more than the budget together', async () => {
    const budget = ReaderCacheBudget.create(512 * KiB);
    const threads = 4;
    const workerUrl = new URL('../../support/reader-cache-filler.js', import.meta.url);
    let maxSampled = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        maxSampled = Math.max(maxSampled, budget.usedBytes);
        await new Promise((r) => setImmediate(r));
      }
    })();
    const reports = await Promise.all(
      Array.from({ length: threads }, (_, i) => {
        const slot = budget.acquireSlot();
        const data: FillerData = { buffer: budget.buffer, slot, seed: i + 1, steps: 40_000, maxEntryBytes: 48 * KiB };
        const worker = new Worker(workerUrl, { workerData: data });
        return new Promise<FillerReport>((resolve, reject) => {
          let report: FillerReport | undefined;
          worker.on('message', (r: FillerReport) => (report = r));
          worker.on('error', reject);
          worker.on('exit', () => {
            budget.releaseSlot(slot);
            if (report) resolve(report);
            else reject(new Error('the filler thread sent no report'));
          });
        });
      }),
    );
    sampling = false;
    await sampler;
    for (const r of reports) {
      assert.deepEqual(r.violations, []);
      assert.ok(r.kept > 0 && r.hits > 0, `every thread kept entries and hit them: ${JSON.stringify(r)}`);
      assert.ok(r.maxUsedBytes <= budget.limitBytes);
    }
    // the budget was actually contended
    assert.ok(Math.max(...reports.map((r) => r.maxUsedBytes)) > budget.limitBytes * 0.9);
    assert.ok(maxSampled <= budget.limitBytes, `sampled ${maxSampled} bytes held, budget ${budget.limitBytes}`);
    assert.equal(budget.usedBytes, 0, 'the exited threads gave everything back');
    assert.equal(budget.threads, 0);
  });
});
