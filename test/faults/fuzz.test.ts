import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FUZZ_KINDS, fuzz, seedFuzzIndex } from '../../bench/faults/index.js';
import { startTestNode, type TestNode } from '../support/node.js';

/** Inputs per kind in the test suite; `node dist/bench/fuzz.js` runs many more. */
const RUNS = 150;

describe('fuzzing over HTTP (the short run of bench/fuzz.ts)', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
    await seedFuzzIndex(node.url);
  });
  after(() => node.destroy());

  for (const kind of FUZZ_KINDS) {
    it(`${kind}: every answer is JSON, no 5xx, the Elasticsearch error shape on 4xx`, async (t) => {
      const run = await fuzz(node.url, kind, RUNS, 20261125);
      t.diagnostic(JSON.stringify(run));
      assert.equal(run.inputs, RUNS);
      const live = await fetch(`${node.url}/health/livez`);
      assert.equal(live.status, 200, 'the node is still alive');
    });
  }
});
