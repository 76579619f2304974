import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { exited, ndjson, request, spawnNode, tempDir, type ChildNode, type JsonResponse } from '../support/node.js';

interface BulkBody {
  errors: boolean;
  items: Array<{ index: { status: number } }>;
}
interface SearchBody {
  hits: { total: { value: number }; hits: Array<{ _source: { marker: string } }> };
}

const WRITERS = 6;
const DOCS_PER_REQUEST = 100;

describe('crash recovery', () => {
  const dataDir = tempDir('svc-crash-');
  let node: ChildNode | undefined;
  after(() => {
    node?.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds every acknowledged document exactly once after SIGKILL', async () => {
    // small memtables so that some documents are in flushed segments and some only in the WAL
    const env = { SVC_MEMTABLE_MAX_BYTES: String(512 * 1024) };
    node = await spawnNode(dataDir, env);
    const url = node.url;
    const acknowledged = new Set<string>();
    let stop = false;

    const writer = async (w: number) => {
      for (let r = 0; !stop; r++) {
        const lines: unknown[] = [];
        const markers: string[] = [];
        for (let d = 0; d < DOCS_PER_REQUEST; d++) {
          const marker = `w${w}r${r}d${d}`;
          markers.push(marker);
          lines.push({ index: { _index: 'crash' } }, { _line: `request ${r} of writer ${w} line ${d} payload ${'x'.repeat(40)}`, marker, writer: `w${w}` });
        }
        try {
          const res: JsonResponse<BulkBody> = await request<BulkBody>(`${url}/_bulk`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
          if (res.status === 200) {
            res.body.items.forEach((item, i) => {
              if (item.index.status === 201) acknowledged.add(markers[i]!);
            });
          }
        } catch {
          return; // the server died under us: this request was not acknowledged
        }
      }
    };
    let running = WRITERS;
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w).finally(() => running--));
    while (acknowledged.size < 3000 && running > 0) await new Promise((r) => setTimeout(r, 10));
    assert.ok(acknowledged.size >= 3000, `the server stopped acknowledging writes after ${acknowledged.size} documents`);
    node.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await exited(node.child);

    node = await spawnNode(dataDir, env);
    const restartedUrl = node.url;
    const seen = new Map<string, number>();
    for (let w = 0; w < WRITERS; w++) {
      const res: JsonResponse<SearchBody> = await request<SearchBody>(`${restartedUrl}/crash/_search?q=writer:w${w}&size=10000`);
      assert.equal(res.status, 200);
      for (const hit of res.body.hits.hits) seen.set(hit._source.marker, (seen.get(hit._source.marker) ?? 0) + 1);
    }
    for (const marker of acknowledged) {
      assert.equal(seen.get(marker), 1, `acknowledged document ${marker} found ${seen.get(marker) ?? 0} times`);
    }
    for (const [marker, n] of seen) assert.equal(n, 1, `document ${marker} indexed ${n} times`);

    // and a clean restart keeps them all
    node.child.kill('SIGTERM');
    await exited(node.child);
    node = await spawnNode(dataDir, env);
    const total = await request<SearchBody>(`${node.url}/crash/_search?size=0`);
    assert.equal(total.body.hits.total.value, seen.size);
  });
});
