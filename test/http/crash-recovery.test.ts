import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { exited, ndjson, request, spawnNode, tempDir, waitReady, type ChildNode, type JsonResponse } from '../support/node.js';

interface BulkBody {
  errors: boolean;
  items: Array<{ index: { status: number } }>;
}
interface SearchBody {
  hits: { total: { value: number }; hits: Array<{ _source: { marker: string } }> };
}

const WRITERS = 4;
/** large requests, as log shippers send them */
const DOCS_PER_REQUEST = 2_000;
/** acknowledged documents before the pause that lets a merge start: a few dozen flushed segments */
const BEFORE_PAUSE = 60_000;
/** longest wait for a moment when a flush and a merge are both writing */
const KILL_DEADLINE_MS = 30_000;

/** Partially written segment files (`*.seg.tmp`) under the data directory's indexes. */
function segmentsBeingWritten(dataDir: string): string[] {
  const indexes = path.join(dataDir, 'indexes');
  const found: string[] = [];
  try {
    for (const dir of fs.readdirSync(indexes)) {
      for (const f of fs.readdirSync(path.join(indexes, dir))) if (f.endsWith('.seg.tmp')) found.push(f);
    }
  } catch {
    // no index yet, or a directory removed while listed
  }
  return found;
}

describe('crash recovery', () => {
  const dataDir = tempDir('svc-crash-');
  let node: ChildNode | undefined;
  after(() => {
    node?.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds every acknowledged document exactly once after SIGKILL during full-speed ingest, a flush and a merge', async (t) => {
    // small memtables: a request or two fills one, so flushes run back to back during ingest,
    // and every eight flushed segments make a merge on the segment writer thread
    const env = { SVC_MEMTABLE_MAX_BYTES: String(512 * 1024) };
    node = await spawnNode(dataDir, env);
    const url = node.url;
    const acknowledged = new Set<string>();
    /** every request sent, by its batch name, with its markers */
    const sent = new Map<string, string[]>();
    let stop = false;
    let gate: Promise<void> | null = null;
    let inFlight = 0;

    const writer = async (w: number) => {
      for (let r = 0; !stop; r++) {
        if (gate) await gate;
        const batch = `w${w}r${r}`;
        const lines: unknown[] = [];
        const markers: string[] = [];
        for (let d = 0; d < DOCS_PER_REQUEST; d++) {
          const marker = `${batch}d${d}`;
          markers.push(marker);
          lines.push({ index: { _index: 'crash' } }, { _line: `request ${r} of writer ${w} line ${d} user ${(d * 7_919) % 1_000} payload ${'x'.repeat(40)}`, marker, batch, writer: `w${w}` });
        }
        sent.set(batch, markers);
        inFlight++;
        try {
          const res: JsonResponse<BulkBody> = await request<BulkBody>(`${url}/_bulk`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
          if (res.status === 200) {
            res.body.items.forEach((item, i) => {
              if (item.index.status === 201) acknowledged.add(markers[i]!);
            });
          }
        } catch {
          return; // the server died under us: this request was not acknowledged
        } finally {
          inFlight--;
        }
      }
    };
    let running = WRITERS;
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w).finally(() => running--));

    const until = async (done: () => boolean) => {
      const deadline = Date.now() + KILL_DEADLINE_MS;
      while (!done() && running > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
    };
    // A merge is scheduled once the memtables waiting to be flushed are all flushed, which never
    // happens while writers keep them coming: the writers pause once, a `_flush` empties the
    // queue and so starts a merge of the flushed segments, and the writers go back to full speed
    // while it runs.
    await until(() => acknowledged.size >= BEFORE_PAUSE);
    let resume!: () => void;
    gate = new Promise((r) => (resume = r));
    await until(() => inFlight === 0);
    const flushed = await request(`${url}/crash/_flush`, { method: 'POST' });
    assert.equal(flushed.status, 200);
    gate = null;
    resume();

    // the kill lands when a flush and the merge are both writing their segment files: a shard
    // flushes one memtable at a time and the compactor runs one merge at a time, so two partial
    // files at once are one of each
    let writing: string[] = [];
    await until(() => (writing = segmentsBeingWritten(dataDir)).length >= 2);
    node.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await exited(node.child);
    assert.ok(acknowledged.size >= BEFORE_PAUSE, `the server stopped acknowledging writes after ${acknowledged.size} documents`);
    assert.ok(writing.length >= 2, `no moment with a flush and a merge both writing came within ${KILL_DEADLINE_MS} ms`);
    t.diagnostic(`killed after ${acknowledged.size} acknowledged documents of ${sent.size} requests, while writing ${writing.join(', ')}`);

    node = await spawnNode(dataDir, env);
    const restartedUrl = node.url;
    // searches are answered during the replay; all acknowledged documents are there once it is done
    await waitReady(restartedUrl);
    const seen = new Map<string, number>();
    for (const batch of sent.keys()) {
      const res: JsonResponse<SearchBody> = await request<SearchBody>(`${restartedUrl}/crash/_search?q=batch:${batch}&size=${DOCS_PER_REQUEST * 2}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.hits.hits.length, res.body.hits.total.value);
      for (const hit of res.body.hits.hits) seen.set(hit._source.marker, (seen.get(hit._source.marker) ?? 0) + 1);
    }
    for (const marker of acknowledged) {
      assert.equal(seen.get(marker), 1, `acknowledged document ${marker} found ${seen.get(marker) ?? 0} times`);
    }
    // documents of requests that were not answered may be there, but once at most
    for (const [marker, n] of seen) assert.equal(n, 1, `document ${marker} indexed ${n} times`);
    const total = await request<SearchBody>(`${restartedUrl}/crash/_search?size=0&track_total_hits=true`);
    assert.equal(total.body.hits.total.value, seen.size, 'no document outside the requests sent');

    // and a clean restart keeps them all
    node.child.kill('SIGTERM');
    await exited(node.child);
    node = await spawnNode(dataDir, env);
    await waitReady(node.url);
    const afterClean = await request<SearchBody>(`${node.url}/crash/_search?size=0&track_total_hits=true`);
    assert.equal(afterClean.body.hits.total.value, seen.size);
  });
});
