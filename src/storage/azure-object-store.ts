/**
 * Azure Blob Storage through a container SAS URL (Azurite in tests). Objects are block blobs
 * named `<prefix><key>`. Files up to `singleShotBytes` go up in one request streamed from disk;
 * larger ones as staged blocks, each retried alone, then one commit.
 */
import { stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AnonymousCredential, ContainerClient, newPipeline } from '@azure/storage-blob';
import { ObjectNotFoundError, SvcError } from '../common/errors.js';
import { parseAzureSasUrl, type AzureSasLocation } from './azure-sas.js';
import { ObjectRangeError, ObjectStoreConfigError, ObjectStoreRequestError, isTransientError, isTransientStatus } from './errors.js';
import { checkRange, totalFromContentRange } from './byte-range.js';
import { streamToBuffer, streamToFile } from './file-io.js';
import { uploadFileParts } from './file-parts.js';
import { checkKey, checkPrefix } from './keys.js';
import type { ListedObject, ObjectMeta, ObjectStore, PutBody, VerifyOptions } from './object-store.js';
import { DEFAULT_RETRY_POLICY, type RetryListener, type RetryPolicy } from './retry.js';

const MiB = 1024 * 1024;

export interface AzureBlobObjectStoreOptions {
  /** files larger than this are uploaded as blocks; default 64 MiB */
  singleShotBytes?: number;
  /** block size of large uploads; default 16 MiB (a 1 GB file is 64 blocks; Azure allows 50,000) */
  blockSizeBytes?: number;
  /** blocks in flight at once; default 4 */
  uploadConcurrency?: number;
  /** retries of one block of a large upload; whole operations are retried by RetryingObjectStore */
  partRetry?: RetryPolicy;
  onRetry?: RetryListener;
  /** longest single request; default 10 minutes */
  requestTimeoutMs?: number;
  /** blobs per list request; default (and Azure's maximum) 5,000 */
  listPageSize?: number;
}

const DELETE_CONCURRENCY = 16;

export class AzureBlobObjectStore implements ObjectStore {
  readonly uri: string;
  readonly location: AzureSasLocation;
  private readonly container: ContainerClient;
  private readonly singleShotBytes: number;
  private readonly blockSizeBytes: number;
  private readonly uploadConcurrency: number;
  private readonly partRetry: RetryPolicy;
  private readonly onRetry: RetryListener | undefined;
  private readonly listPageSize: number;

  /** `sasUrl`: a container SAS URL, optionally followed by a key prefix path; checked before use */
  constructor(sasUrl: string, options: AzureBlobObjectStoreOptions = {}) {
    this.location = parseAzureSasUrl(sasUrl);
    this.uri = this.location.redactedUri;
    this.singleShotBytes = options.singleShotBytes ?? 64 * MiB;
    this.blockSizeBytes = options.blockSizeBytes ?? 16 * MiB;
    this.uploadConcurrency = options.uploadConcurrency ?? 4;
    this.partRetry = options.partRetry ?? DEFAULT_RETRY_POLICY;
    this.onRetry = options.onRetry;
    this.listPageSize = options.listPageSize ?? 5000;
    // one retry policy for the whole module (retry.ts), so the SDK's own is off
    const pipeline = newPipeline(new AnonymousCredential(), {
      retryOptions: { maxTries: 1, tryTimeoutInMs: options.requestTimeoutMs ?? 10 * 60 * 1000 },
    });
    this.container = new ContainerClient(this.location.containerUrl, pipeline);
  }

  async put(key: string, body: PutBody): Promise<void> {
    const blob = this.container.getBlockBlobClient(this.blobName(key));
    try {
      if (Buffer.isBuffer(body)) {
        await blob.upload(body, body.length);
        return;
      }
      const { size } = await stat(body.filePath);
      if (size <= this.singleShotBytes) {
        await blob.upload(() => createReadStream(body.filePath), size);
        return;
      }
      // block ids must be of equal length within a blob; the random part keeps two concurrent
      // uploads of the same key from committing each other's blocks
      const upload = randomBytes(6).toString('hex');
      const ids = await uploadFileParts({
        filePath: body.filePath,
        sizeBytes: size,
        partSizeBytes: this.blockSizeBytes,
        concurrency: this.uploadConcurrency,
        retry: this.partRetry,
        ...(this.onRetry ? { onRetry: this.onRetry } : {}),
        key,
        sendPart: async (index, part) => {
          const id = Buffer.from(`${upload}-${String(index).padStart(6, '0')}`).toString('base64');
          try {
            await blob.stageBlock(id, part, part.length);
          } catch (err) {
            throw azureFailure('put', key, err);
          }
          return id;
        },
      });
      await blob.commitBlockList(ids);
    } catch (err) {
      throw azureFailure('put', key, err, false);
    }
  }

  async get(key: string): Promise<Buffer> {
    const blob = this.container.getBlobClient(this.blobName(key));
    try {
      const response = await blob.download(0);
      return await streamToBuffer(bodyOf(response.readableStreamBody), { name: 'get', key, expectedBytes: response.contentLength });
    } catch (err) {
      throw azureFailure('get', key, err);
    }
  }

  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    checkRange(offset, length);
    if (length === 0) return this.emptyRange(key, offset);
    const blob = this.container.getBlobClient(this.blobName(key));
    try {
      const response = await blob.download(offset, length);
      // a range running past the end comes back short rather than refused
      if (response.contentLength !== undefined && response.contentLength < length) {
        response.readableStreamBody?.resume();
        throw new ObjectRangeError(key, offset, length, totalFromContentRange(response.contentRange));
      }
      return await streamToBuffer(bodyOf(response.readableStreamBody), { name: 'get_range', key, expectedBytes: length });
    } catch (err) {
      if (statusOf(err) === 416) throw new ObjectRangeError(key, offset, length, (await this.head(key))?.sizeBytes);
      throw azureFailure('get_range', key, err);
    }
  }

  async getToFile(key: string, filePath: string): Promise<void> {
    const blob = this.container.getBlobClient(this.blobName(key));
    try {
      const response = await blob.download(0);
      await streamToFile(bodyOf(response.readableStreamBody), filePath, {
        name: 'get_to_file',
        key,
        expectedBytes: response.contentLength,
      });
    } catch (err) {
      throw azureFailure('get_to_file', key, err);
    }
  }

  async head(key: string): Promise<ObjectMeta | null> {
    const blob = this.container.getBlobClient(this.blobName(key));
    try {
      const props = await blob.getProperties();
      return {
        sizeBytes: props.contentLength ?? 0,
        ...(props.lastModified ? { lastModifiedMs: props.lastModified.getTime() } : {}),
      };
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw azureFailure('head', key, err);
    }
  }

  async list(prefix: string): Promise<ListedObject[]> {
    checkPrefix(prefix);
    const out: ListedObject[] = [];
    const storePrefix = this.location.prefix;
    try {
      for await (const page of this.container.listBlobsFlat({ prefix: storePrefix + prefix }).byPage({ maxPageSize: this.listPageSize })) {
        for (const item of page.segment.blobItems) {
          out.push({ key: item.name.slice(storePrefix.length), sizeBytes: item.properties.contentLength ?? 0 });
        }
      }
    } catch (err) {
      throw azureFailure('list', prefix, err, false);
    }
    return out;
  }

  async delete(key: string): Promise<void> {
    const blob = this.container.getBlobClient(this.blobName(key));
    try {
      await blob.delete();
    } catch (err) {
      if (azureErrorCode(err) === 'BlobNotFound') return;
      throw azureFailure('delete', key, err, false);
    }
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    for (const key of keys) checkKey(key);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < keys.length) await this.delete(keys[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(DELETE_CONCURRENCY, keys.length) }, worker));
  }

  async verify(options: VerifyOptions = {}): Promise<void> {
    const where = `azure object store ${this.uri}`;
    try {
      await this.container.listBlobsFlat({ prefix: this.location.prefix }).byPage({ maxPageSize: 1 }).next();
      if (options.write !== false) {
        const probe = this.container.getBlockBlobClient(`${this.location.prefix}.svc-verify/${randomBytes(8).toString('hex')}`);
        const body = Buffer.from('probe');
        await probe.upload(body, body.length);
        await probe.delete();
      }
    } catch (err) {
      const status = statusOf(err);
      const code = azureErrorCode(err);
      if (status === 404) throw new ObjectStoreConfigError(`${where}: container [${this.location.container}] does not exist (${code ?? '404'})`);
      if (status === 403) {
        throw new ObjectStoreConfigError(
          `${where} refused the SAS (${code ?? '403'}): check its signature, expiry, permissions (read, write, delete, list) and allowed IP ranges`,
        );
      }
      if (status !== undefined) throw new ObjectStoreConfigError(`${where} answered ${status} ${code ?? ''}`.trimEnd());
      throw new ObjectStoreConfigError(`${where} is not usable: ${describe(err)}`);
    }
  }

  async close(): Promise<void> {
    // the SDK's pipeline holds pooled sockets only
  }

  private blobName(key: string): string {
    return this.location.prefix + checkKey(key);
  }

  private async emptyRange(key: string, offset: number): Promise<Buffer> {
    const meta = await this.head(key);
    if (meta === null) throw new ObjectNotFoundError(key);
    if (offset > meta.sizeBytes) throw new ObjectRangeError(key, offset, 0, meta.sizeBytes);
    return Buffer.alloc(0);
  }
}

function bodyOf(stream: NodeJS.ReadableStream | undefined): Readable {
  if (!stream) throw new ObjectStoreRequestError('get', '', 'the response had no body', true, undefined);
  return stream as Readable;
}


function statusOf(err: unknown): number | undefined {
  const status = (err as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === 'number' && status > 0 ? status : undefined;
}

/** The service's error code (BlobNotFound, ContainerNotFound, AuthenticationFailed, ...). */
function azureErrorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { details?: { errorCode?: unknown }; code?: unknown; response?: { headers?: { get?(name: string): string | undefined } } };
  if (typeof e.details?.errorCode === 'string') return e.details.errorCode;
  const header = e.response?.headers?.get?.('x-ms-error-code');
  if (header) return header;
  return typeof e.code === 'string' ? e.code : undefined;
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // the service's messages run on with RequestId and Time lines
  return message.split('\n', 1)[0].slice(0, 300);
}

/**
 * Maps an SDK failure: 404 (BlobNotFound, ContainerNotFound, or a body-less HEAD) becomes
 * ObjectNotFoundError when `missingIsNotFound`; the rest ObjectStoreRequestError.
 */
function azureFailure(op: string, key: string, err: unknown, missingIsNotFound = true): Error {
  if (err instanceof SvcError) return err;
  const status = statusOf(err);
  const code = azureErrorCode(err);
  if (missingIsNotFound && (status === 404 || code === 'BlobNotFound' || code === 'ContainerNotFound')) return new ObjectNotFoundError(key);
  const transient = status !== undefined ? isTransientStatus(status) : isTransientError(err);
  const reason = [status, code, describe(err)].filter((part) => part !== undefined && part !== '').join(' ');
  // no `cause`: the SDK's error carries the request, whose URL holds the SAS signature
  return new ObjectStoreRequestError(op, key, reason, transient, status);
}
