/**
 * S3 and S3-compatible stores (MinIO, s3rver in tests, ...). Objects are named `<prefix><key>` in
 * one bucket. Files up to `multipartThresholdBytes` go up in one PutObject streamed from disk;
 * larger ones as a multipart upload whose parts are retried alone and which is aborted on failure.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type GetObjectCommandOutput,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { ObjectNotFoundError, SvcError } from '../common/errors.js';
import { ObjectRangeError, ObjectStoreConfigError, ObjectStoreRequestError, isTransientError, isTransientStatus } from './errors.js';
import { checkRange, totalFromContentRange } from './byte-range.js';
import { streamToBuffer, streamToFile } from './file-io.js';
import { uploadFileParts } from './file-parts.js';
import { checkKey, checkPrefix, normalizeStorePrefix, s3StoreUri } from './keys.js';
import type { ListedObject, ObjectMeta, ObjectStore, PutBody, VerifyOptions } from './object-store.js';
import { DEFAULT_RETRY_POLICY, type RetryListener, type RetryPolicy } from './retry.js';

const MiB = 1024 * 1024;
/** S3's limit on keys per DeleteObjects request */
const DELETE_BATCH = 1000;
/** S3's smallest part, the last one excepted */
const MIN_PART_BYTES = 5 * MiB;

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface S3ObjectStoreOptions {
  bucket: string;
  /** prepended to every key: "" or "a/b" */
  prefix?: string;
  /** when absent, the SDK's chain decides (AWS_REGION, ~/.aws/config); us-east-1 with a custom endpoint */
  region?: string;
  /** an S3-compatible service, e.g. http://127.0.0.1:9000 */
  endpoint?: string;
  /** `http://host/bucket/key` rather than `http://bucket.host/key`; most S3-compatible stores want it */
  forcePathStyle?: boolean;
  /** when absent, the SDK's default chain (environment, shared files, SSO, instance metadata) */
  credentials?: S3Credentials;
  /** files larger than this use a multipart upload; default 64 MiB */
  multipartThresholdBytes?: number;
  /** part size of multipart uploads; default 16 MiB, at least 5 MiB */
  partSizeBytes?: number;
  /** parts in flight at once; default 4 */
  uploadConcurrency?: number;
  /** retries of one part of a multipart upload; whole operations are retried by RetryingObjectStore */
  partRetry?: RetryPolicy;
  onRetry?: RetryListener;
  /** socket idle time before a request is abandoned; default 60 s */
  requestTimeoutMs?: number;
  /** keys per list request; default (and S3's maximum) 1,000 */
  listPageSize?: number;
}

export class S3ObjectStore implements ObjectStore {
  readonly uri: string;
  readonly bucket: string;
  readonly prefix: string;
  private readonly client: S3Client;
  private readonly multipartThresholdBytes: number;
  private readonly partSizeBytes: number;
  private readonly uploadConcurrency: number;
  private readonly partRetry: RetryPolicy;
  private readonly onRetry: RetryListener | undefined;
  private readonly listPageSize: number;

  constructor(options: S3ObjectStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = normalizeStorePrefix(options.prefix ?? '');
    this.uri = s3StoreUri(this.bucket, this.prefix, options.endpoint);
    this.multipartThresholdBytes = options.multipartThresholdBytes ?? 64 * MiB;
    this.partSizeBytes = Math.max(MIN_PART_BYTES, options.partSizeBytes ?? 16 * MiB);
    this.uploadConcurrency = options.uploadConcurrency ?? 4;
    this.partRetry = options.partRetry ?? DEFAULT_RETRY_POLICY;
    this.onRetry = options.onRetry;
    this.listPageSize = options.listPageSize ?? 1000;
    const config: S3ClientConfig = {
      // one retry policy for the whole module (retry.ts), so the SDK's own is off
      maxAttempts: 1,
      // trailing checksums (aws-chunked bodies) are not understood by every S3-compatible store
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: 10_000, requestTimeout: options.requestTimeoutMs ?? 60_000 },
    };
    const region = options.region ?? (options.endpoint ? 'us-east-1' : undefined);
    if (region) config.region = region;
    if (options.endpoint) config.endpoint = options.endpoint;
    if (options.forcePathStyle !== undefined) config.forcePathStyle = options.forcePathStyle;
    if (options.credentials) config.credentials = options.credentials;
    this.client = new S3Client(config);
  }

  async put(key: string, body: PutBody): Promise<void> {
    const name = this.objectName(key);
    try {
      if (Buffer.isBuffer(body)) {
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: name, Body: body, ContentLength: body.length }));
        return;
      }
      const { size } = await stat(body.filePath);
      if (size <= this.multipartThresholdBytes) {
        await this.client.send(
          new PutObjectCommand({ Bucket: this.bucket, Key: name, Body: createReadStream(body.filePath), ContentLength: size }),
        );
        return;
      }
      await this.putMultipart(key, name, body.filePath, size);
    } catch (err) {
      throw s3Failure('put', key, err, false);
    }
  }

  async get(key: string): Promise<Buffer> {
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectName(key) }));
      return await streamToBuffer(bodyOf(response), { name: 'get', key, expectedBytes: response.ContentLength });
    } catch (err) {
      throw s3Failure('get', key, err);
    }
  }

  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    checkRange(offset, length);
    if (length === 0) return this.emptyRange(key, offset);
    try {
      const response = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.objectName(key), Range: `bytes=${offset}-${offset + length - 1}` }),
      );
      // a range running past the end comes back short rather than refused
      if (response.ContentLength !== undefined && response.ContentLength < length) {
        bodyOf(response).resume();
        throw new ObjectRangeError(key, offset, length, totalFromContentRange(response.ContentRange));
      }
      return await streamToBuffer(bodyOf(response), { name: 'get_range', key, expectedBytes: length });
    } catch (err) {
      if (statusOf(err) === 416) throw new ObjectRangeError(key, offset, length, (await this.head(key))?.sizeBytes);
      throw s3Failure('get_range', key, err);
    }
  }

  async getToFile(key: string, filePath: string): Promise<void> {
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectName(key) }));
      await streamToFile(bodyOf(response), filePath, { name: 'get_to_file', key, expectedBytes: response.ContentLength });
    } catch (err) {
      throw s3Failure('get_to_file', key, err);
    }
  }

  async head(key: string): Promise<ObjectMeta | null> {
    try {
      const response = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectName(key) }));
      return {
        sizeBytes: response.ContentLength ?? 0,
        ...(response.LastModified ? { lastModifiedMs: response.LastModified.getTime() } : {}),
      };
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw s3Failure('head', key, err);
    }
  }

  async list(prefix: string): Promise<ListedObject[]> {
    checkPrefix(prefix);
    const out: ListedObject[] = [];
    let token: string | undefined;
    try {
      do {
        const response = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.prefix + prefix,
            MaxKeys: this.listPageSize,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        );
        for (const item of response.Contents ?? []) {
          if (item.Key === undefined) continue;
          out.push({ key: item.Key.slice(this.prefix.length), sizeBytes: item.Size ?? 0 });
        }
        token = response.IsTruncated ? response.NextContinuationToken : undefined;
      } while (token);
    } catch (err) {
      throw s3Failure('list', prefix, err, false);
    }
    return out;
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectName(key) }));
    } catch (err) {
      // S3 answers 204 for a missing key; some compatible stores answer 404
      if (statusOf(err) === 404 && errorName(err) !== 'NoSuchBucket') return;
      throw s3Failure('delete', key, err, false);
    }
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    const names = keys.map((key) => this.objectName(key));
    for (let start = 0; start < names.length; start += DELETE_BATCH) {
      const batch = names.slice(start, start + DELETE_BATCH);
      try {
        const response = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
        );
        const errors = (response.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
        if (errors.length > 0) {
          const first = errors[0];
          const transient = errors.every((e) => e.Code === 'InternalError' || e.Code === 'SlowDown' || e.Code === 'ServiceUnavailable');
          throw new ObjectStoreRequestError('delete_many', first.Key ?? '', `${errors.length} objects not deleted, first: ${first.Code} ${first.Message ?? ''}`.trimEnd(), transient, undefined);
        }
      } catch (err) {
        throw s3Failure('delete_many', batch[0].slice(this.prefix.length), err, false);
      }
    }
  }

  async verify(options: VerifyOptions = {}): Promise<void> {
    const where = `s3 object store ${this.uri}`;
    try {
      await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, MaxKeys: 1 }));
      if (options.write !== false) {
        const probe = `${this.prefix}.svc-verify/${randomBytes(8).toString('hex')}`;
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: probe, Body: Buffer.from('probe'), ContentLength: 5 }));
        await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: probe }));
      }
    } catch (err) {
      const status = statusOf(err);
      const name = errorName(err);
      if (name === 'NoSuchBucket' || status === 404) throw new ObjectStoreConfigError(`${where}: bucket [${this.bucket}] does not exist`);
      if (status === 403 || status === 401) {
        throw new ObjectStoreConfigError(`${where} refused the credentials (${name ?? status}): check the access key, secret and bucket policy`);
      }
      if (status !== undefined) throw new ObjectStoreConfigError(`${where} answered ${status} ${name ?? ''}`.trimEnd());
      throw new ObjectStoreConfigError(`${where} is not usable: ${describe(err)}`);
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private objectName(key: string): string {
    return this.prefix + checkKey(key);
  }

  private async putMultipart(key: string, name: string, filePath: string, size: number): Promise<void> {
    const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: name }));
    const uploadId = created.UploadId;
    if (!uploadId) throw new ObjectStoreRequestError('put', key, 'the store returned no multipart upload id', true, undefined);
    try {
      const etags = await uploadFileParts({
        filePath,
        sizeBytes: size,
        partSizeBytes: this.partSizeBytes,
        concurrency: this.uploadConcurrency,
        retry: this.partRetry,
        ...(this.onRetry ? { onRetry: this.onRetry } : {}),
        key,
        sendPart: async (index, part) => {
          try {
            const response = await this.client.send(
              new UploadPartCommand({
                Bucket: this.bucket,
                Key: name,
                UploadId: uploadId,
                PartNumber: index + 1,
                Body: part,
                ContentLength: part.length,
              }),
            );
            if (!response.ETag) throw new ObjectStoreRequestError('put', key, `part ${index + 1} came back without an ETag`, true, undefined);
            return response.ETag;
          } catch (err) {
            throw s3Failure('put', key, err, false);
          }
        },
      });
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: name,
          UploadId: uploadId,
          MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
        }),
      );
    } catch (err) {
      // parts of an upload never completed are billed until aborted
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: name, UploadId: uploadId })).catch(() => undefined);
      throw err;
    }
  }

  private async emptyRange(key: string, offset: number): Promise<Buffer> {
    const meta = await this.head(key);
    if (meta === null) throw new ObjectNotFoundError(key);
    if (offset > meta.sizeBytes) throw new ObjectRangeError(key, offset, 0, meta.sizeBytes);
    return Buffer.alloc(0);
  }
}

function bodyOf(response: GetObjectCommandOutput): Readable {
  const body = response.Body;
  if (body instanceof Readable) return body;
  throw new ObjectStoreRequestError('get', '', 'the response had no readable body', true, undefined);
}


function statusOf(err: unknown): number | undefined {
  const status = (err as { $metadata?: { httpStatusCode?: unknown } } | undefined)?.$metadata?.httpStatusCode;
  return typeof status === 'number' && status > 0 ? status : undefined;
}

function errorName(err: unknown): string | undefined {
  const e = err as { Code?: unknown; name?: unknown } | undefined;
  if (typeof e?.Code === 'string') return e.Code;
  return typeof e?.name === 'string' && e.name !== 'Error' ? e.name : undefined;
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n', 1)[0].slice(0, 300);
}

const NOT_FOUND_NAMES = new Set(['NoSuchKey', 'NotFound', 'NoSuchBucket']);

/** Maps an SDK failure: NoSuchKey, NotFound or NoSuchBucket becomes ObjectNotFoundError when `missingIsNotFound`. */
function s3Failure(op: string, key: string, err: unknown, missingIsNotFound = true): Error {
  if (err instanceof SvcError) return err;
  const status = statusOf(err);
  const name = errorName(err);
  if (missingIsNotFound && (status === 404 || (name !== undefined && NOT_FOUND_NAMES.has(name)))) return new ObjectNotFoundError(key);
  const transient = status !== undefined ? isTransientStatus(status) : isTransientError(err);
  const reason = [status, name, describe(err)].filter((part) => part !== undefined && part !== '').join(' ');
  return new ObjectStoreRequestError(op, key, reason, transient, status, { cause: err });
}
