import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { exited, ndjson, request, spawnNode, tempDir, waitReady, type ChildNode } from '../support/node.js';

interface SearchBody {
  hits: { total: { value: number }; hits: Array<{ _id: string; _source: Record<string, unknown> }> };
}
interface BulkBody {
  errors: boolean;
  items: Array<Record<string, { status: number; result?: string; _version?: number }>>;
}

describe('documents by _id across SIGKILL and restart', () => {
  const dataDir = tempDir('svc-ids-restart-');
  let node: ChildNode | undefined;
  after(() => {
    node?.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    node = await spawnNode(dataDir);
    await waitReady(node.url);
    return node.url;
  };
  const kill = async () => {
    node!.child.kill('SIGKILL');
    await exited(node!.child);
  };
  const bulk = async (url: string, lines: unknown[]) =>
    (await request<BulkBody>(`${url}/_bulk`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } })).body;
  const count = async (url: string, q?: string) =>
    (await request<SearchBody>(`${url}/ids/_search?size=0${q ? `&q=${encodeURIComponent(q)}` : ''}`)).body.hits.total.value;
  const batch = (round: string) => {
    const lines: unknown[] = [];
    for (let i = 0; i < 50; i++) lines.push({ index: { _index: 'ids', _id: `event-${i}` } }, { _line: `event ${i} round ${round}`, round });
    return lines;
  };

  it('keeps one copy per _id, replacements and deletes through a WAL replay, a flush and a merge', async () => {
    let url = await start();
    assert.equal((await bulk(url, batch('a'))).errors, false);
    // a resent batch, then replaces and deletes, all only in the write-ahead log
    assert.ok((await bulk(url, batch('a'))).items.every((it) => it.index!.result === 'updated'));
    await bulk(url, [
      ...Array.from({ length: 10 }, (_, i) => [{ index: { _index: 'ids', _id: `event-${i}` } }, { _line: `event ${i} round b`, round: 'b' }]).flat(),
      ...Array.from({ length: 5 }, (_, i) => ({ delete: { _index: 'ids', _id: `event-${40 + i}` } })),
    ]);
    const expectState = async (when: string, version0: number) => {
      assert.equal(await count(url), 45, `count ${when}`);
      assert.equal(await count(url, 'round:b'), 10, `replaced ${when}`);
      assert.equal(await count(url, 'round:a'), 35, `kept ${when}`);
      assert.equal((await request(`${url}/ids/_doc/event-42`)).status, 404, `deleted ${when}`);
      const got = await request<{ _version: number; _source: { round: string } }>(`${url}/ids/_doc/event-0`);
      assert.equal(got.body._version, version0, `version ${when}`);
      assert.equal(got.body._source.round, 'b');
    };
    await expectState('before the kill', 3);

    await kill();
    url = await start();
    await expectState('after a replay', 3);
    const resent = await bulk(url, batch('c'));
    assert.equal(resent.errors, false);
    assert.equal(resent.items[0]!.index!._version, 4, 'versions count on after the replay');
    assert.equal(resent.items[40]!.index!.result, 'created', 'a deleted _id is created again');
    assert.equal(await count(url), 50);
    assert.equal(await count(url, 'round:c'), 50);

    await request(`${url}/ids/_flush`, { method: 'POST' });
    await bulk(url, [{ delete: { _index: 'ids', _id: 'event-1' } }, { index: { _index: 'ids', _id: 'event-2' } }, { _line: 'event 2 round d', round: 'd' }]);
    await request(`${url}/ids/_flush`, { method: 'POST' });
    await kill();
    url = await start();
    assert.equal(await count(url), 49, 'after a flush and a restart');
    assert.equal(await count(url, 'round:d'), 1);
    assert.equal((await request(`${url}/ids/_doc/event-1`)).status, 404);
    assert.equal((await request<{ _version: number }>(`${url}/ids/_doc/event-2`)).body._version, 5);

    // deletes only in the log, over flushed segments
    await bulk(url, [{ delete: { _index: 'ids', _id: 'event-3' } }]);
    await kill();
    url = await start();
    assert.equal(await count(url), 48, 'a logged delete of a flushed document after a replay');

    assert.equal((await request(`${url}/ids/_forcemerge`, { method: 'POST' })).status, 200);
    assert.equal(await count(url), 48, 'after a merge');
    await kill();
    url = await start();
    assert.equal(await count(url), 48, 'after a merge and a restart');
    assert.equal(await count(url, 'round:c'), 47);
    assert.equal((await bulk(url, batch('e'))).items.filter((it) => it.index!.result === 'created').length, 2, 'only the deleted ids are created again');
    assert.equal(await count(url), 50);
  });
});
