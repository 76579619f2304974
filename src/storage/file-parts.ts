/**
 * Uploads a large file as numbered parts (S3 multipart parts, Azure blocks): a few parts in
 * flight, each read from disk into its own buffer and retried alone on a transient failure.
 * Memory in use is at most `concurrency` parts.
 */
import { open } from 'node:fs/promises';
import { withRetries, type RetryListener, type RetryPolicy } from './retry.js';

export interface FilePartsUpload<T> {
  filePath: string;
  sizeBytes: number;
  partSizeBytes: number;
  concurrency: number;
  retry: RetryPolicy;
  onRetry?: RetryListener;
  key: string;
  /** sends part `index` (0-based); its result is kept in part order */
  sendPart(index: number, body: Buffer): Promise<T>;
}

export function partCount(sizeBytes: number, partSizeBytes: number): number {
  return Math.max(1, Math.ceil(sizeBytes / partSizeBytes));
}

export async function uploadFileParts<T>(upload: FilePartsUpload<T>): Promise<T[]> {
  const count = partCount(upload.sizeBytes, upload.partSizeBytes);
  const results = new Array<T>(count);
  const handle = await open(upload.filePath, 'r');
  let next = 0;
  let failed = false;
  const sendNextParts = async (): Promise<void> => {
    while (!failed && next < count) {
      const index = next++;
      const offset = index * upload.partSizeBytes;
      const length = Math.min(upload.partSizeBytes, upload.sizeBytes - offset);
      const body = Buffer.allocUnsafe(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await handle.read(body, read, length - read, offset + read);
        if (bytesRead === 0) throw new Error(`file ${upload.filePath} shrank during upload`);
        read += bytesRead;
      }
      results[index] = await withRetries(upload.retry, { op: 'put_part', key: upload.key }, () => upload.sendPart(index, body), upload.onRetry);
    }
  };
  const worker = async (): Promise<void> => {
    try {
      await sendNextParts();
    } catch (err) {
      // the other workers stop after their current part
      failed = true;
      throw err;
    }
  };
  try {
    const workers: Promise<void>[] = [];
    for (let i = 0; i < Math.min(upload.concurrency, count); i++) workers.push(worker());
    const settled = await Promise.allSettled(workers);
    const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (rejected) throw rejected.reason;
    return results;
  } finally {
    await handle.close();
  }
}
