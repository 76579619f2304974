import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exited, spawnNode, waitReady, type ChildNode } from '../support/node.js';

const MiB = 1024 * 1024;

/** A small filesystem of its own (tmpfs), so that filling it fills nothing else; needs root. */
function mountSmallFs(dir: string, bytes: number): string | null {
  if (process.getuid?.() !== 0) return 'mounting a small filesystem needs root';
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `mount failed: ${(err as Error).message}`;
  }
}

interface BulkAnswer {
  errors?: boolean;
  items?: Array<{ index: { status: number } }>;
  error?: { type: string; reason: string };
}

describe('a full disk under the data directory', () => {
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-disk-full-'));
  let unusable: string | null = null;
  let node: ChildNode | undefined;
  before(() => {
    unusable = mountSmallFs(mountPoint, 48 * MiB);
  });
  after(async () => {
    if (node) {
      node.child.kill('SIGKILL');
      await exited(node.child);
    }
    if (!unusable) execFileSync('umount', [mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  });

  it('refuses writes with 429, loses nothing acknowledged, and takes writes again once space is back', async (t) => {
    if (unusable) return t.skip(unusable);
    const filler = path.join(mountPoint, 'filler');
    fs.writeFileSync(filler, Buffer.alloc(40 * MiB, 1));
    const dataDir = path.join(mountPoint, 'data');
    node = await spawnNode(dataDir, { SVC_MEMTABLE_MAX_BYTES: String(2 * MiB) });
    const url = node.url;
    let acknowledged = 0;
    let batch = 0;
    const send = async (): Promise<{ status: number; body: BulkAnswer }> => {
      const lines: string[] = [];
      for (let d = 0; d < 500; d++) lines.push('{"index":{"_index":"full"}}', JSON.stringify({ _line: `batch ${batch} line ${d} ${randomBytes(48).toString('hex')}`, n: d }));
      batch++;
      const res = await fetch(`${url}/_bulk`, { method: 'POST', body: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
      const body = (await res.json()) as BulkAnswer;
      if (res.status === 200) for (const item of body.items ?? []) if (item.index.status === 201) acknowledged++;
      return { status: res.status, body };
    };

    // fill the disk (random text, which compresses badly): every answer is a success or a 429
    // that says why, never a 5xx
    let refusal: BulkAnswer | undefined;
    for (let i = 0; i < 400 && !refusal; i++) {
      const { status, body } = await send();
      assert.ok(status === 200 || status === 429, `bulk answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
      if (status === 429 && body.error?.type === 'cluster_block_exception') refusal = body;
    }
    assert.ok(refusal, 'the disk never filled up');
    assert.match(refusal.error!.reason, /no space left/);
    t.diagnostic(`${acknowledged} documents acknowledged before the disk was full`);
    assert.equal((await fetch(`${url}/health/livez`)).status, 200);
    const during = (await (await fetch(`${url}/full/_count`)).json()) as { count: number };
    assert.equal(during.count, acknowledged, 'every acknowledged document is searchable on the full disk, and nothing refused');

    // space comes back: writes are taken again without a restart
    fs.rmSync(filler);
    let accepted = false;
    for (let i = 0; i < 100 && !accepted; i++) {
      const { status } = await send();
      accepted = status === 200;
      if (!accepted) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(accepted, 'writes were still refused after space came back');

    // and a clean restart keeps exactly what was acknowledged
    node.child.kill('SIGTERM');
    await exited(node.child);
    node = await spawnNode(dataDir);
    await waitReady(node.url);
    const afterRestart = (await (await fetch(`${node.url}/full/_count`)).json()) as { count: number };
    assert.equal(afterRestart.count, acknowledged);
  });
});
