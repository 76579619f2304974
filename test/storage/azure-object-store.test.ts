import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ContainerClient } from '@azure/storage-blob';
import { ObjectNotFoundError } from '../../src/common/errors.js';
import { ObjectStoreConfigError, openObjectStore, type ObjectStore } from '../../src/storage/index.js';
import { AzureBlobObjectStore } from '../../src/storage/azure-object-store.js';
import { azuriteUnavailable, startAzurite, type AzuriteServer } from '../support/azurite.js';
import { describeObjectStore } from './behaviour.js';

const MiB = 1024 * 1024;
const unavailable = azuriteUnavailable();

describe('azure blob storage through azurite', { skip: unavailable }, () => {
  let azurite: AzuriteServer;
  const opened: ObjectStore[] = [];
  before(async () => {
    azurite = await startAzurite();
  });
  after(async () => {
    await Promise.all(opened.map((s) => s.close()));
    await azurite?.stop();
  });

  /** a fresh container, configured the way an operator does: one SAS URL setting */
  const open = async (): Promise<ObjectStore> => {
    const container = await azurite.createContainer();
    const store = openObjectStore(`azure+${azurite.sasUrl(container)}`, {
      retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 100 },
      // small blocks, so that the 20 MiB upload goes up as staged blocks
      tuning: { singleShotBytes: 8 * MiB, blockSizeBytes: 4 * MiB },
    });
    opened.push(store);
    return store;
  };

  describeObjectStore('azure', () => open());

  it('keeps objects under the key prefix named in the URL path', async () => {
    const container = await azurite.createContainer();
    const prefixed = new AzureBlobObjectStore(azurite.sasUrl(container, {}, 'tenant/one'));
    const whole = new AzureBlobObjectStore(azurite.sasUrl(container));
    await prefixed.put('segments/1.seg', Buffer.from('x'));
    assert.deepEqual(await whole.list(''), [{ key: 'tenant/one/segments/1.seg', sizeBytes: 1 }]);
    assert.deepEqual(await prefixed.list(''), [{ key: 'segments/1.seg', sizeBytes: 1 }]);
    assert.equal(prefixed.uri, `${azurite.blobEndpoint}/${container}/tenant/one`);
  });

  it('uploads a large file as staged blocks and a small one in a single request', async () => {
    const container = await azurite.createContainer();
    const url = azurite.sasUrl(container);
    const store = new AzureBlobObjectStore(url, { singleShotBytes: 2 * MiB, blockSizeBytes: 1 * MiB });
    const dir = mkdtempSync(join(tmpdir(), 'svc-azure-blocks-'));
    try {
      const large = join(dir, 'large');
      const content = randomBytes(2 * MiB + 100);
      writeFileSync(large, content);
      await store.put('large', { filePath: large });
      const small = join(dir, 'small');
      writeFileSync(small, randomBytes(MiB));
      await store.put('small', { filePath: small });

      const client = new ContainerClient(url);
      const blocks = await client.getBlockBlobClient('large').getBlockList('committed');
      assert.deepEqual(
        blocks.committedBlocks?.map((b) => b.size),
        [MiB, MiB, 100],
      );
      assert.deepEqual(await store.get('large'), content);
      const single = await client.getBlockBlobClient('small').getBlockList('committed');
      assert.equal(single.committedBlocks?.length ?? 0, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pages through listings', async () => {
    const container = await azurite.createContainer();
    const store = new AzureBlobObjectStore(azurite.sasUrl(container), { listPageSize: 3 });
    const keys = ['k/0', 'k/1', 'k/2', 'k/3', 'k/4', 'k/5', 'k/6'];
    await Promise.all(keys.map((k) => store.put(k, Buffer.from(k))));
    assert.deepEqual(
      (await store.list('k/')).map((o) => o.key),
      keys,
    );
  });

  it('fails verify() for a well-formed SAS with a wrong signature, without showing the SAS', async () => {
    const container = await azurite.createContainer();
    const url = azurite.sasUrl(container, { wrongKey: true });
    const store = openObjectStore(url);
    const sig = new URL(url).searchParams.get('sig') ?? '';
    await assert.rejects(store.verify(), (err: unknown) => {
      assert.ok(err instanceof ObjectStoreConfigError, String(err));
      assert.match(err.message, /refused the SAS/);
      assert.ok(!err.message.includes(sig) && !err.message.includes('sig='), err.message);
      return true;
    });
    await assert.rejects(store.verify({ write: false }), ObjectStoreConfigError);
  });

  it('fails verify() for a container that does not exist, and reads from it give 404', async () => {
    const store = new AzureBlobObjectStore(azurite.sasUrl('no-such-container'));
    await assert.rejects(store.verify(), /container \[no-such-container\] does not exist/);
    await assert.rejects(store.get('k'), (err: unknown) => err instanceof ObjectNotFoundError && err.status === 404);
    assert.equal(await store.head('k'), null);
  });

  it('refuses an expired SAS before any request', () => {
    assert.throws(
      () => new AzureBlobObjectStore(azurite.sasUrl('c-expired', { expiresOn: new Date(Date.now() - 60_000) })),
      (err: unknown) => err instanceof ObjectStoreConfigError && /expired at/.test(err.message),
    );
  });
});
