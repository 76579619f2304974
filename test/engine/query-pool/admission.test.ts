import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { CircuitBreakingError, QueryTimeoutError, TooManyRequestsError } from '../../../src/common/index.js';
import { SearchAdmission } from '../../../src/engine/query-pool/index.js';

/** A search that runs until told to finish, and says when it started. */
function heldSearch(): { started: Promise<void>; finish(): void; run(): Promise<string> } {
  let markStarted!: () => void;
  let finish!: () => void;
  const started = new Promise<void>((r) => (markStarted = r));
  const done = new Promise<void>((r) => (finish = r));
  return {
    started,
    finish,
    run: async () => {
      markStarted();
      await done;
      return 'ok';
    },
  };
}

describe('search admission (SVC_QUERY_QUEUE_SIZE)', () => {
  it('runs the only search at once, without waiting for a turn of the event loop', async () => {
    const admission = new SearchAdmission({ running: 2, queueSize: 2 });
    let started = false;
    const answer = admission.run(async () => {
      started = true;
      return 'ok';
    });
    assert.equal(started, true);
    assert.equal(await answer, 'ok');
    // with a search running, the next one waits for its turn
    const held = heldSearch();
    const first = admission.run(() => held.run());
    let secondStarted = false;
    const second = admission.run(async () => (secondStarted = true));
    assert.equal(secondStarted, false);
    await second;
    held.finish();
    await first;
  });

  it('runs a fixed number at once, queues the next in arrival order, refuses past the queue with 429', async () => {
    const admission = new SearchAdmission({ running: 2, queueSize: 2 });
    const searches = Array.from({ length: 4 }, () => heldSearch());
    const order: number[] = [];
    const answers = searches.map((s, i) => admission.run(async () => (order.push(i), s.run())));
    await Promise.all([searches[0]!.started, searches[1]!.started]);
    assert.deepEqual(admission.stats, { running: 2, queued: 2, completed: 0, rejected: 0 });

    await assert.rejects(
      admission.run(async () => 'never'),
      (err: unknown) => err instanceof TooManyRequestsError && err.status === 429 && err.type === 'es_rejected_execution_exception' && /queue capacity = 2/.test(err.reason),
    );
    assert.equal(admission.stats.rejected, 1);

    // a finished search hands its turn to the longest waiting one
    searches[1]!.finish();
    await searches[2]!.started;
    assert.deepEqual(order, [0, 1, 2]);
    assert.equal(admission.stats.queued, 1);
    for (const s of searches) s.finish();
    assert.deepEqual(await Promise.all(answers), ['ok', 'ok', 'ok', 'ok']);
    assert.deepEqual(order, [0, 1, 2, 3]);
    assert.deepEqual(admission.stats, { running: 0, queued: 0, completed: 4, rejected: 1 });
  });

  it('gives one turn per turn of the event loop, so that input arriving meanwhile is handled between two searches', async () => {
    const admission = new SearchAdmission({ running: 4, queueSize: 100 });
    const events: string[] = [];
    // searches that hold the main thread for a while each, as a search over a memtable does
    const busySearch = (name: string) => async () => {
      events.push(name);
      const until = performance.now() + 20;
      while (performance.now() < until);
    };
    let writing = true;
    // another client's work: a chain of file system calls, each answered through the event loop
    const writer = (async () => {
      while (writing) {
        await fs.promises.stat(import.meta.dirname);
        events.push('w');
      }
    })();
    await Promise.all(['s0', 's1', 's2', 's3', 's4', 's5'].map((name) => admission.run(busySearch(name))));
    writing = false;
    await writer;
    const searches = events.filter((e) => e !== 'w');
    assert.equal(searches.length, 6);
    const between = events.slice(events.indexOf('s0'), events.indexOf('s5') + 1);
    for (let i = 1; i < between.length; i++) {
      assert.ok(!(between[i] !== 'w' && between[i - 1] !== 'w'), `two searches ran back to back: ${events.join(' ')}`);
    }
  });

  it('a failed search gives its turn back', async () => {
    const admission = new SearchAdmission({ running: 1, queueSize: 0 });
    await assert.rejects(admission.run(async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await admission.run(async () => 'next'), 'next');
  });

  it('a search whose deadline passed while it waited is answered with a timeout, not run', async () => {
    const admission = new SearchAdmission({ running: 1, queueSize: 1 });
    const first = heldSearch();
    const running = admission.run(first.run);
    await first.started;
    let ran = false;
    const late = admission.run(async () => (ran = true), Date.now() - 1);
    first.finish();
    await running;
    await assert.rejects(late, (err: unknown) => err instanceof QueryTimeoutError && err.status === 504);
    assert.equal(ran, false);
    assert.equal(admission.stats.running, 0);
  });

  it('a search refused when its turn comes (over the memory limit) is not run and gives its turn back', async () => {
    let overLimit = false;
    const admission = new SearchAdmission({
      running: 1,
      queueSize: 1,
      beforeTurn: () => {
        if (overLimit) throw new CircuitBreakingError('[parent] Data too large');
      },
    });
    const first = heldSearch();
    const running = admission.run(first.run);
    await first.started;
    let ran = false;
    // queued while under the limit, its turn comes once the process is over it
    const queued = admission.run(async () => (ran = true));
    overLimit = true;
    first.finish();
    await running;
    await assert.rejects(queued, (err: unknown) => err instanceof CircuitBreakingError && err.status === 429);
    assert.equal(ran, false);
    assert.equal(admission.stats.running, 0);
    overLimit = false;
    assert.equal(await admission.run(async () => 'next'), 'next');
  });
});
