/**
 * The embedded object store: a directory on local disk, one file per object at its key's path.
 * Writes go to a temporary file under `<root>/.svc-tmp/`, are fsynced and renamed into place,
 * so a reader sees an object whole or not at all, also after a crash.
 */
import { constants } from 'node:fs';
import { copyFile, link, lstat, mkdir, open, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BadRequestError, ObjectNotFoundError, SvcError } from '../common/errors.js';
import { ObjectRangeError, ObjectStoreConfigError, ObjectStoreRequestError, isTransientError } from './errors.js';
import { checkRange } from './byte-range.js';
import { fsyncDirectory, fsyncPath, temporarySibling } from './file-io.js';
import { checkKey, checkPrefix } from './keys.js';
import type { ListedObject, ObjectMeta, ObjectStore, PutBody, VerifyOptions } from './object-store.js';

/** where writes are staged; on the same filesystem as the objects so that rename is atomic */
const TEMP_DIR = '.svc-tmp';
/** temporary files older than this are leftovers of a crash and removed by verify() */
const STALE_TEMP_MS = 60 * 60 * 1000;
const DELETE_CONCURRENCY = 16;

export class LocalObjectStore implements ObjectStore {
  readonly root: string;
  readonly uri: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.uri = pathToFileURL(this.root).href;
  }

  async put(key: string, body: PutBody): Promise<void> {
    const target = this.pathOf(key);
    // the embedded default keeps objects in the data directory: a segment file written there is already in place
    if (!Buffer.isBuffer(body) && resolve(body.filePath) === target) return;
    const temp = await this.stage(key, body);
    try {
      await this.renameIntoPlace(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw failure('put', key, err, false);
    }
  }

  async get(key: string): Promise<Buffer> {
    const path = this.pathOf(key);
    try {
      return await readFile(path);
    } catch (err) {
      throw failure('get', key, err);
    }
  }

  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    checkRange(offset, length);
    const path = this.pathOf(key);
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      throw failure('get_range', key, err);
    }
    try {
      const { size } = await handle.stat();
      if (offset + length > size) throw new ObjectRangeError(key, offset, length, size);
      const out = Buffer.allocUnsafe(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await handle.read(out, read, length - read, offset + read);
        if (bytesRead === 0) throw new ObjectRangeError(key, offset, length, offset + read);
        read += bytesRead;
      }
      return out;
    } catch (err) {
      throw failure('get_range', key, err);
    } finally {
      await handle.close();
    }
  }

  async getToFile(key: string, filePath: string): Promise<void> {
    const source = this.pathOf(key);
    await mkdir(dirname(resolve(filePath)), { recursive: true });
    const temp = temporarySibling(resolve(filePath));
    try {
      // a reflink where the filesystem has them, a plain copy elsewhere; never a hard link, so
      // that a cache file can be changed or removed without touching the object
      await copyFile(source, temp, constants.COPYFILE_FICLONE);
      await fsyncPath(temp);
      await rename(temp, filePath);
    } catch (err) {
      await rm(temp, { force: true });
      throw failure('get_to_file', key, err);
    }
    await fsyncDirectory(dirname(resolve(filePath)));
  }

  async head(key: string): Promise<ObjectMeta | null> {
    const path = this.pathOf(key);
    try {
      const s = await stat(path);
      if (!s.isFile()) return null;
      return { sizeBytes: s.size, lastModifiedMs: Math.floor(s.mtimeMs) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw failure('head', key, err);
    }
  }

  async list(prefix: string): Promise<ListedObject[]> {
    checkPrefix(prefix);
    // only the folder the prefix fully names needs walking
    const slash = prefix.lastIndexOf('/');
    const baseKey = slash < 0 ? '' : prefix.slice(0, slash);
    const out: ListedObject[] = [];
    try {
      await this.walk(baseKey, prefix, out);
    } catch (err) {
      throw failure('list', prefix, err);
    }
    out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return out;
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    try {
      await unlink(path);
    } catch (err) {
      if (isMissing(err)) return;
      throw failure('delete', key, err);
    }
    await this.pruneEmptyParents(dirname(path));
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.pathOf(key);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < keys.length) await this.delete(keys[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(DELETE_CONCURRENCY, keys.length) }, worker));
  }

  async verify(options: VerifyOptions = {}): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true });
      const s = await stat(this.root);
      if (!s.isDirectory()) throw new Error('not a directory');
      await readdir(this.root);
      if (options.write !== false) {
        await this.removeStaleTemporaries();
        const path = join(this.root, TEMP_DIR, `probe-${process.pid}-${Date.now()}`);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, 'probe');
        await unlink(path);
      }
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new ObjectStoreConfigError(`object store ${this.uri} is not usable: ${why}`);
    }
  }

  async close(): Promise<void> {
    // nothing held open between calls
  }

  private pathOf(key: string): string {
    checkKey(key);
    const first = key.split('/', 1)[0];
    if (first === TEMP_DIR) throw new BadRequestError(`object key [${key}] is reserved`);
    const path = join(this.root, ...key.split('/'));
    // checkKey already refuses "..", this guards the invariant itself
    if (!path.startsWith(this.root + sep)) throw new BadRequestError(`object key [${key}] escapes the store`);
    return path;
  }

  /** Writes the body under a temporary name and makes it durable; returns that name. */
  private async stage(key: string, body: PutBody): Promise<string> {
    const tempDir = join(this.root, TEMP_DIR);
    const temp = temporarySibling(join(tempDir, key.replaceAll('/', '_').slice(-100)));
    try {
      await mkdir(tempDir, { recursive: true });
      if (Buffer.isBuffer(body)) {
        const handle = await open(temp, 'wx');
        try {
          await handle.writeFile(body);
          await handle.sync();
        } finally {
          await handle.close();
        }
      } else {
        await linkOrCopy(body.filePath, temp);
        await fsyncPath(temp);
      }
      return temp;
    } catch (err) {
      await rm(temp, { force: true });
      throw failure('put', key, err, false);
    }
  }

  private async renameIntoPlace(temp: string, target: string): Promise<void> {
    // a concurrent delete may prune the target's folder between mkdir and rename: try again
    for (let attempt = 1; ; attempt++) {
      await mkdir(dirname(target), { recursive: true });
      try {
        await rename(temp, target);
        break;
      } catch (err) {
        if (attempt >= 5 || !isMissing(err)) throw err;
      }
    }
    await fsyncDirectory(dirname(target));
  }

  private async walk(dirKey: string, prefix: string, out: ListedObject[]): Promise<void> {
    const dir = dirKey === '' ? this.root : join(this.root, ...dirKey.split('/'));
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const entry of entries) {
      const key = dirKey === '' ? entry.name : `${dirKey}/${entry.name}`;
      if (dirKey === '' && entry.name === TEMP_DIR) continue;
      if (entry.isDirectory()) {
        // descend only where keys under this folder can still match the prefix
        const folder = `${key}/`;
        if (folder.startsWith(prefix) || prefix.startsWith(folder)) await this.walk(key, prefix, out);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        try {
          const s = await lstat(join(dir, entry.name));
          out.push({ key, sizeBytes: s.size });
        } catch (err) {
          // deleted while listing
          if (!isMissing(err)) throw err;
        }
      }
    }
  }

  private async pruneEmptyParents(dir: string): Promise<void> {
    while (dir.startsWith(this.root + sep)) {
      try {
        await rmdir(dir);
      } catch {
        // not empty (or gone): folders above are not empty either
        return;
      }
      dir = dirname(dir);
    }
  }

  private async removeStaleTemporaries(): Promise<void> {
    const tempDir = join(this.root, TEMP_DIR);
    let names: string[];
    try {
      names = await readdir(tempDir);
    } catch {
      return;
    }
    const cutoff = Date.now() - STALE_TEMP_MS;
    for (const name of names) {
      const path = join(tempDir, name);
      try {
        if ((await lstat(path)).mtimeMs < cutoff) await rm(path, { force: true });
      } catch {
        // removed by someone else meanwhile
      }
    }
  }
}

/** Same filesystem: a hard link, no bytes copied. Elsewhere (or where links are refused): a copy. */
async function linkOrCopy(source: string, target: string): Promise<void> {
  try {
    await link(source, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK' && code !== 'EOPNOTSUPP') throw err;
    await copyFile(source, target, constants.COPYFILE_FICLONE);
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/** Maps a filesystem error: a missing file is ObjectNotFoundError (unless `missingIsNotFound` is false). */
function failure(op: string, key: string, err: unknown, missingIsNotFound = true): Error {
  if (err instanceof SvcError) return err;
  if (missingIsNotFound && isMissing(err)) return new ObjectNotFoundError(key);
  const why = err instanceof Error ? err.message : String(err);
  return new ObjectStoreRequestError(op, key, why, isTransientError(err), undefined, { cause: err });
}
