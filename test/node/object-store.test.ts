import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bulkIndex, mainScript, request, startTestNode, tempDir } from '../support/node.js';
import { startAzurite, type AzuriteServer } from '../support/azurite.js';
import { startS3, S3RVER_CREDENTIALS, type S3Server } from '../support/s3.js';
import { openObjectStore } from '../../src/storage/index.js';

interface SearchBody {
  hits: { total: { value: number } };
}

/**
 * The cache node's local copies are only a cache: wipe them and a restarted node fetches every
 * segment file back from the object store.
 */
async function roundTrip(objectStore: string): Promise<void> {
  const dataDir = tempDir('svc-objects-');
  try {
    let node = await startTestNode({ SVC_OBJECT_STORE: objectStore }, dataDir);
    const docs = Array.from({ length: 300 }, (_, i) => ({ _line: `stored remotely ${i} ${i % 2 ? 'odd' : 'even'}`, n: i }));
    assert.equal((await bulkIndex(node.url, 'remote', docs)).status, 200);
    await node.engine.flush(['remote']);
    const keys = node.engine.shard('remote')!.segmentRecords().map((s) => s.path);
    assert.equal(keys.length, 1);
    await node.close();

    const store = openObjectStore(objectStore, { dataDir });
    assert.ok(await store.head(keys[0]!), 'the segment file is in the object store');
    await store.close();

    fs.rmSync(path.join(dataDir, 'indexes'), { recursive: true, force: true });
    node = await startTestNode({ SVC_OBJECT_STORE: objectStore }, dataDir);
    const all = await request<SearchBody>(`${node.url}/remote/_search?size=0`);
    assert.equal(all.body.hits.total.value, 300);
    const odd = await request<SearchBody>(`${node.url}/remote/_search?q=odd&size=0`);
    assert.equal(odd.body.hits.total.value, 150);

    // deleting the index removes its objects too
    assert.equal((await request(`${node.url}/remote`, { method: 'DELETE' })).status, 200);
    const after = openObjectStore(objectStore, { dataDir });
    assert.equal(await after.head(keys[0]!), null);
    await after.close();
    await node.close();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('segment files in the object store', () => {
  let azurite: AzuriteServer;
  let s3: S3Server;
  before(async () => {
    [azurite, s3] = await Promise.all([startAzurite(), startS3()]);
  });
  after(async () => {
    await Promise.all([azurite?.stop(), s3?.stop()]);
  });

  it('survive the loss of the local copies: Azure Blob Storage (Azurite)', async () => {
    const container = await azurite.createContainer();
    await roundTrip(azurite.sasUrl(container));
  });

  it('survive the loss of the local copies: S3 (s3rver)', async () => {
    const bucket = await s3.createBucket();
    process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
    await roundTrip(`s3://${bucket}/svc?region=us-east-1&endpoint=${encodeURIComponent(s3.endpoint)}&force_path_style=true`);
  });

  it('the service exits at start-up with an invalid SAS URL', async () => {
    const container = await azurite.createContainer();
    const cases = [
      azurite.sasUrl(container, { expiresOn: new Date(Date.now() - 60_000) }),
      azurite.sasUrl(container, { wrongKey: true }),
      'https://account.blob.core.windows.net/container?sv=2021-08-06&sp=racwdl',
    ];
    for (const sas of cases) {
      const dataDir = tempDir('svc-badsas-');
      const child = spawn(process.execPath, [mainScript(), 'serve', '--port', '0', '--data-dir', dataDir], {
        env: { ...process.env, SVC_OBJECT_STORE: sas },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
      assert.notEqual(code, 0, `started with ${sas.replace(/sig=[^&]+/, 'sig=…')}`);
      assert.doesNotMatch(output, /svc is listening/);
      assert.match(output, /SAS|signature|object store|expired|authoriz/i);
      assert.doesNotMatch(output, /sig=[A-Za-z0-9%]{10,}/, 'the signature is not printed');
    }
  });
});
