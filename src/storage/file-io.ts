/**
 * Local-file helpers shared by the backends: atomic writes (temporary name, fsync, rename) and
 * draining download streams with a byte count check.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ObjectStoreRequestError } from './errors.js';

/** A sibling of `filePath` for writing before the rename: same directory, so same filesystem. */
export function temporarySibling(filePath: string): string {
  return join(dirname(filePath), `.${basename(filePath)}.${randomBytes(6).toString('hex')}.tmp`);
}

export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Directory fsync makes a rename durable; some filesystems refuse it, which is then no worse than before. */
export async function fsyncDirectory(dir: string): Promise<void> {
  try {
    await fsyncPath(dir);
  } catch {
    // EISDIR/EINVAL on filesystems without directory fsync
  }
}

/**
 * Writes `source` to `filePath` so that the file appears complete or not at all. With
 * `expectedBytes`, a stream that ends early (a dropped connection) is a transient error.
 */
export async function streamToFile(
  source: Readable,
  filePath: string,
  op: { name: string; key: string; expectedBytes?: number | undefined },
): Promise<void> {
  await mkdir(dirname(filePath), { recursive: true });
  const temp = temporarySibling(filePath);
  try {
    let written = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        callback(null, chunk);
      },
    });
    await pipeline(source, counter, createWriteStream(temp, { flags: 'wx' }));
    if (op.expectedBytes !== undefined && written !== op.expectedBytes) {
      throw new ObjectStoreRequestError(op.name, op.key, `download ended after ${written} of ${op.expectedBytes} bytes`, true, undefined);
    }
    await fsyncPath(temp);
    await rename(temp, filePath);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await fsyncDirectory(dirname(filePath));
}

/** Collects a download stream; a stream shorter than `expectedBytes` is a transient error. */
export async function streamToBuffer(source: Readable, op: { name: string; key: string; expectedBytes?: number | undefined }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of source) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    chunks.push(buf);
    total += buf.length;
  }
  if (op.expectedBytes !== undefined && total !== op.expectedBytes) {
    throw new ObjectStoreRequestError(op.name, op.key, `download ended after ${total} of ${op.expectedBytes} bytes`, true, undefined);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
}
