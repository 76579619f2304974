/**
 * Starts s3rver, a local S3-compatible server, for tests: a child process on a free port of
 * 127.0.0.1 with a temporary directory, stopped in teardown. Clients use path-style addressing
 * and s3rver's fixed credentials S3RVER/S3RVER.
 */
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { findBin, startChildServer } from './azurite.js';

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  /** creates a bucket with a fresh name and returns the name */
  createBucket(): Promise<string>;
  stop(): Promise<void>;
}

let bucketCounter = 0;

/** Why s3rver cannot be started here, or undefined when it can. */
export function s3Unavailable(): string | undefined {
  return findBin('s3rver') ? undefined : 'node_modules/.bin/s3rver not found';
}

export async function startS3(): Promise<S3Server> {
  const bin = findBin('s3rver');
  if (!bin) throw new Error('node_modules/.bin/s3rver not found');
  const dir = mkdtempSync(join(tmpdir(), 'svc-s3rver-'));
  const server = await startChildServer(
    's3rver',
    realpathSync(bin),
    ['--directory', dir, '--address', '127.0.0.1', '--port', '0', '--silent'],
    /S3rver listening on 127\.0\.0\.1:(\d+)/,
    dir,
    // s3rver encrypts list continuation tokens with DES, which OpenSSL 3 keeps in its legacy provider
    ['--openssl-legacy-provider'],
  );
  const endpoint = `http://127.0.0.1:${server.port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  return {
    endpoint,
    async createBucket() {
      const name = `svc-test-${process.pid}-${++bucketCounter}`;
      await client.send(new CreateBucketCommand({ Bucket: name }));
      return name;
    },
    async stop() {
      client.destroy();
      await server.stop();
    },
  };
}
