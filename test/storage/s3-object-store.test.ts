import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { S3Client } from '@aws-sdk/client-s3';
import { ObjectNotFoundError } from '../../src/common/errors.js';
import { ObjectStoreConfigError, openObjectStore, type ObjectStore } from '../../src/storage/index.js';
import { S3ObjectStore } from '../../src/storage/s3-object-store.js';
import { s3Unavailable, S3RVER_CREDENTIALS, startS3, type S3Server } from '../support/s3.js';
import { describeObjectStore } from './behaviour.js';

const MiB = 1024 * 1024;

describe('s3 through s3rver', { skip: s3Unavailable() }, () => {
  let s3: S3Server;
  const opened: ObjectStore[] = [];
  before(async () => {
    s3 = await startS3();
  });
  after(async () => {
    await Promise.all(opened.map((s) => s.close()));
    await s3?.stop();
  });

  const track = <T extends ObjectStore>(store: T): T => {
    opened.push(store);
    return store;
  };

  /** a fresh bucket, configured the way an operator does: one s3:// setting plus credentials */
  const open = async (): Promise<ObjectStore> => {
    const bucket = await s3.createBucket();
    return track(
      openObjectStore(`s3://${bucket}/svc/data?region=us-east-1&endpoint=${s3.endpoint}&force_path_style=true`, {
        s3Credentials: S3RVER_CREDENTIALS,
        retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 100 },
        // a low threshold, so that the 20 MiB upload is a multipart upload of 5 MiB parts
        tuning: { multipartThresholdBytes: 8 * MiB, partSizeBytes: 5 * MiB },
      }),
    );
  };

  describeObjectStore('s3', open);

  it('keeps objects under the key prefix of the URL', async () => {
    const bucket = await s3.createBucket();
    const options = { bucket, endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS };
    const prefixed = track(new S3ObjectStore({ ...options, prefix: 'tenant/one' }));
    const whole = track(new S3ObjectStore(options));
    await prefixed.put('segments/1.seg', Buffer.from('x'));
    assert.deepEqual(await whole.list(''), [{ key: 'tenant/one/segments/1.seg', sizeBytes: 1 }]);
    assert.deepEqual(await prefixed.list(''), [{ key: 'segments/1.seg', sizeBytes: 1 }]);
  });

  it('uploads a large file as a multipart upload and a small one in a single request', async () => {
    const bucket = await s3.createBucket();
    const store = track(
      new S3ObjectStore({
        bucket,
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS,
        multipartThresholdBytes: 6 * MiB,
        partSizeBytes: 5 * MiB,
      }),
    );
    const dir = mkdtempSync(join(tmpdir(), 'svc-s3-parts-'));
    // the commands the store sends, seen through the SDK's one entry point
    const sent: string[] = [];
    const send = S3Client.prototype.send;
    S3Client.prototype.send = function (this: S3Client, ...args: Parameters<S3Client['send']>) {
      sent.push(args[0].constructor.name);
      return send.apply(this, args);
    } as S3Client['send'];
    try {
      const large = join(dir, 'large');
      const content = randomBytes(11 * MiB);
      writeFileSync(large, content);
      await store.put('large', { filePath: large });
      assert.deepEqual(sent, [
        'CreateMultipartUploadCommand',
        'UploadPartCommand',
        'UploadPartCommand',
        'UploadPartCommand',
        'CompleteMultipartUploadCommand',
      ]);
      sent.length = 0;
      const small = join(dir, 'small');
      writeFileSync(small, randomBytes(MiB));
      await store.put('small', { filePath: small });
      assert.deepEqual(sent, ['PutObjectCommand']);
    } finally {
      S3Client.prototype.send = send;
      rmSync(dir, { recursive: true, force: true });
    }
    assert.equal((await store.head('large'))?.sizeBytes, 11 * MiB);
  });

  it('pages through listings with continuation tokens', async () => {
    const bucket = await s3.createBucket();
    const store = track(new S3ObjectStore({ bucket, endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS, listPageSize: 3 }));
    const keys = ['k/0', 'k/1', 'k/2', 'k/3', 'k/4', 'k/5', 'k/6'];
    await Promise.all(keys.map((k) => store.put(k, Buffer.from(k))));
    assert.deepEqual(
      (await store.list('k/')).map((o) => o.key),
      keys,
    );
  });

  it('fails verify() for a bucket that does not exist, and reads from it give 404', async () => {
    const store = track(new S3ObjectStore({ bucket: 'no-such-bucket', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS }));
    await assert.rejects(store.verify(), (err: unknown) => err instanceof ObjectStoreConfigError && /bucket \[no-such-bucket\] does not exist/.test(err.message));
    await assert.rejects(store.get('k'), (err: unknown) => err instanceof ObjectNotFoundError && err.status === 404);
  });

  it('fails verify() with an unknown access key', async () => {
    const bucket = await s3.createBucket();
    const store = track(
      new S3ObjectStore({ bucket, endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'wrong' } }),
    );
    await assert.rejects(store.verify(), (err: unknown) => err instanceof ObjectStoreConfigError && /refused the credentials/.test(err.message));
  });

  it('fails verify() when nothing listens at the endpoint', async () => {
    const store = track(new S3ObjectStore({ bucket: 'b-unreachable', endpoint: 'http://127.0.0.1:1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS }));
    await assert.rejects(store.verify(), (err: unknown) => err instanceof ObjectStoreConfigError && /is not usable/.test(err.message));
  });
});
