/**
 * The write-ahead log of one cache node: appends are acknowledged only once fsynced, and appends
 * that arrive while a write is in flight share the next write and fsync (group commit).
 */
import { mkdir, open, readdir, readFile, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeHeader, frameRecords, FRAME_HEADER_BYTES, HEADER_BYTES, parseWalFileName, walFileName } from './format.js';
import { scanWalFile, type WalFileScan } from './scan.js';
import { DiskFullError, isOutOfSpace } from '../../common/errors.js';

export interface WalLogger {
  warn(obj: object, msg: string): void;
}

export interface WalOptions {
  /** a file past this size is closed and the next append starts a new one (default 64 MiB) */
  maxFileBytes?: number;
  logger?: WalLogger;
}

export interface WalRecord {
  /** seq of the file the record was read from */
  seq: number;
  /** a view into the file's bytes: copy it to keep it past the replay */
  payload: Buffer;
}

export interface WalStats {
  /** append() calls acknowledged */
  appends: number;
  records: number;
  /** write system calls issued for records (one per group) */
  writes: number;
  /** fsync and fdatasync calls on files and the directory */
  fsyncs: number;
  bytesWritten: number;
  /** files started, by rotate() or by size */
  filesCreated: number;
}

interface AppendOp {
  kind: 'append';
  /** frame headers and payloads, written in order */
  buffers: Buffer[];
  /** their bytes together */
  length: number;
  records: number;
  resolve(result: { seq: number }): void;
  reject(err: unknown): void;
}

interface RotateOp {
  kind: 'rotate';
  resolve(seq: number): void;
  reject(err: unknown): void;
}

type PendingOp = AppendOp | RotateOp;

interface OpenFile {
  seq: number;
  handle: FileHandle;
  bytes: number;
}

const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;

const defaultLogger: WalLogger = {
  warn: (obj, msg) => process.emitWarning(`${msg} ${JSON.stringify(obj)}`),
};

export class Wal {
  readonly stats: WalStats = { appends: 0, records: 0, writes: 0, fsyncs: 0, bytesWritten: 0, filesCreated: 0 };

  private readonly queue: PendingOp[] = [];
  private draining = false;
  private drained: Promise<void> = Promise.resolve();
  private file: OpenFile | undefined;
  /** seq of a file being created, protected from removeFilesBefore until it is open */
  private creatingSeq = -1;
  /** the newest file existing at open was checked for a torn tail (by replay or before a write) */
  private tailChecked = false;
  private replaying = false;
  private closed = false;
  private failure: unknown;

  private constructor(
    readonly dir: string,
    private readonly maxFileBytes: number,
    private readonly logger: WalLogger,
    private nextSeq: number,
  ) {
    this.firstNewSeq = nextSeq;
  }

  /** files below this seq existed at open: the ones replay reads */
  private readonly firstNewSeq: number;

  static async open(dir: string, opts: WalOptions = {}): Promise<Wal> {
    const maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes <= HEADER_BYTES) {
      throw new RangeError(`maxFileBytes must be an integer above ${HEADER_BYTES}`);
    }
    await mkdir(dir, { recursive: true });
    const seqs = await listSeqs(dir);
    const nextSeq = seqs.length > 0 ? seqs[seqs.length - 1]! + 1 : 1;
    return new Wal(dir, maxFileBytes, opts.logger ?? defaultLogger, nextSeq);
  }

  /**
   * Appends the payloads as records, in call order, and resolves once they are fsynced. Returns
   * the seq of the file holding them (all payloads of one call land in the same file).
   */
  append(payloads: readonly Buffer[]): Promise<{ seq: number }> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    for (const p of payloads) {
      if (p.length === 0) return Promise.reject(new RangeError('wal records must not be empty'));
    }
    const { buffers, length } = frameRecords(payloads);
    return new Promise((resolve, reject) => {
      this.queue.push({ kind: 'append', buffers, length, records: payloads.length, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Starts a new file after everything appended so far and returns its seq: records of appends
   * called before are in older files, records of appends called after in this one or newer.
   */
  rotate(): Promise<number> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    return new Promise((resolve, reject) => {
      this.queue.push({ kind: 'rotate', resolve, reject });
      this.schedule();
    });
  }

  /**
   * Reads every record of the files that existed at open, oldest first. Appends may run
   * meanwhile (they go to newer files), and a replay may be read more than once, but files
   * must not be removed under it. A torn tail of the newest of those files is logged and cut
   * off; corruption anywhere else throws CorruptionError before any record of that file is
   * yielded.
   */
  async *replay(): AsyncGenerator<WalRecord> {
    if (this.replaying) throw new Error('wal replay is already running');
    this.replaying = true;
    try {
      const seqs = (await listSeqs(this.dir)).filter((seq) => seq < this.firstNewSeq);
      for (let i = 0; i < seqs.length; i++) {
        const seq = seqs[i]!;
        const isLast = i === seqs.length - 1;
        const { buf, scan } = await this.checkFile(seq, isLast);
        if (isLast) this.tailChecked = true;
        for (const at of scan.frames) {
          const start = at + FRAME_HEADER_BYTES;
          yield { seq, payload: buf.subarray(start, start + buf.readUInt32LE(at)) };
        }
      }
      this.tailChecked = true;
    } finally {
      this.replaying = false;
    }
  }

  /** Deletes the files with a seq below `seq` (their records are safe elsewhere). */
  async removeFilesBefore(seq: number): Promise<void> {
    let removed = 0;
    for (const s of await listSeqs(this.dir)) {
      if (s >= seq || s === this.file?.seq || s === this.creatingSeq) continue;
      try {
        await unlink(join(this.dir, walFileName(s)));
        removed++;
      } catch (err) {
        // removed by an overlapping call meanwhile: the goal is reached
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    if (removed > 0) await this.syncDir();
  }

  /** Seqs of the files on disk, ascending. */
  files(): Promise<number[]> {
    return listSeqs(this.dir);
  }

  /** Waits for pending appends, then closes the current file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.drained;
    const file = this.file;
    this.file = undefined;
    await file?.handle.close();
  }

  private refusal(): Error | undefined {
    if (this.closed) return new Error('wal is closed');
    if (this.failure !== undefined) return new Error(`wal failed earlier and takes no more writes: ${describe(this.failure)}`);
    return undefined;
  }

  private schedule(): void {
    if (this.draining) return;
    this.draining = true;
    // a microtask lets appends issued in the same tick share the first write
    this.drained = Promise.resolve().then(() => this.drain());
  }

  /** Never rejects: a failed write or fsync fails every pending op and the log itself. */
  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (head.kind === 'rotate') {
        this.queue.shift();
        try {
          head.resolve(await this.rotateNow());
        } catch (err) {
          head.reject(err);
          this.fail(err);
        }
        continue;
      }
      let n = 1;
      while (n < this.queue.length && this.queue[n]!.kind === 'append') n++;
      const batch = this.queue.splice(0, n) as AppendOp[];
      try {
        await this.writeBatch(batch);
      } catch (err) {
        // settled promises ignore the extra reject, so the whole batch can be rejected
        for (const op of batch) op.reject(err);
        // a full disk refused the bytes before anything was acknowledged: the log goes on
        if (!(err instanceof DiskFullError)) this.fail(err);
      }
    }
    this.draining = false;
  }

  private fail(err: unknown): void {
    // after a failed fsync the kernel may have dropped the dirty pages: nothing written since
    // the last good sync can be trusted, so the log stops rather than acknowledging more
    this.failure = err;
    for (const op of this.queue.splice(0)) op.reject(err);
  }

  private async writeBatch(batch: AppendOp[]): Promise<void> {
    let i = 0;
    while (i < batch.length) {
      const file = await this.fileFor(batch[i]!.length);
      let j = i;
      let bytes = 0;
      do {
        bytes += batch[j]!.length;
        j++;
      } while (j < batch.length && file.bytes + bytes + batch[j]!.length <= this.maxFileBytes);
      const group = batch.slice(i, j);
      try {
        await writeFully(
          file.handle,
          group.flatMap((op) => op.buffers),
          file.bytes,
        );
      } catch (err) {
        if (!isOutOfSpace(err)) throw err;
        // what part of the group reached the file is cut off again, so the next group starts
        // at the last acknowledged record (shrinking a file needs no space)
        await file.handle.truncate(file.bytes);
        throw new DiskFullError('the write-ahead log');
      }
      file.bytes += bytes;
      this.stats.writes++;
      this.stats.bytesWritten += bytes;
      await file.handle.datasync();
      this.stats.fsyncs++;
      for (const op of group) {
        this.stats.appends++;
        this.stats.records += op.records;
        op.resolve({ seq: file.seq });
      }
      i = j;
    }
  }

  /** The file the next `bytes` go to, rotating when the current one would pass the size limit. */
  private async fileFor(bytes: number): Promise<OpenFile> {
    if (this.file && this.file.bytes > HEADER_BYTES && this.file.bytes + bytes > this.maxFileBytes) {
      await this.rotateNow();
    }
    if (!this.file) await this.startFile();
    return this.file!;
  }

  private async rotateNow(): Promise<number> {
    if (this.file && this.file.bytes === HEADER_BYTES) return this.file.seq;
    const old = this.file;
    this.file = undefined;
    await old?.handle.close();
    await this.startFile();
    return this.file!.seq;
  }

  private async startFile(): Promise<void> {
    if (!this.tailChecked) await this.checkNewestFile();
    const seq = this.nextSeq++;
    this.creatingSeq = seq;
    try {
      const path = join(this.dir, walFileName(seq));
      let handle: FileHandle;
      try {
        handle = await open(path, 'wx');
      } catch (err) {
        throw isOutOfSpace(err) ? new DiskFullError('the write-ahead log') : err;
      }
      try {
        // the header reaches disk with the first group's fdatasync; a file cut short before
        // that reads as a torn header and is removed on recovery
        await writeFully(handle, [encodeHeader(seq)], 0);
        await this.syncDir();
      } catch (err) {
        await handle.close().catch(() => undefined);
        if (!isOutOfSpace(err)) throw err;
        // a file without its header holds nothing: it goes, and the next start takes a new seq
        await unlink(path).catch(() => undefined);
        throw new DiskFullError('the write-ahead log');
      }
      this.file = { seq, handle, bytes: HEADER_BYTES };
      this.stats.filesCreated++;
    } finally {
      this.creatingSeq = -1;
    }
  }

  /**
   * Run before the first new file when no replay did it: a torn tail left in the newest file
   * would read as corruption once a newer file follows it.
   */
  private async checkNewestFile(): Promise<void> {
    const seqs = await listSeqs(this.dir);
    if (seqs.length > 0) await this.checkFile(seqs[seqs.length - 1]!, true);
    this.tailChecked = true;
  }

  private async checkFile(seq: number, isLast: boolean): Promise<{ buf: Buffer; scan: WalFileScan }> {
    const path = join(this.dir, walFileName(seq));
    const buf = await readFile(path);
    const scan = scanWalFile(buf, path, seq, isLast);
    if (scan.torn) {
      this.logger.warn(
        { file: path, offset: scan.torn.offset, reason: scan.torn.reason, droppedBytes: buf.length - scan.goodEnd },
        'dropping torn tail of write-ahead log file',
      );
      if (scan.headerTorn) {
        await unlink(path);
        await this.syncDir();
      } else {
        const handle = await open(path, 'r+');
        try {
          await handle.truncate(scan.goodEnd);
          await handle.datasync();
          this.stats.fsyncs++;
        } finally {
          await handle.close();
        }
      }
    }
    return { buf, scan };
  }

  private async syncDir(): Promise<void> {
    const handle = await open(this.dir, 'r');
    try {
      await handle.sync();
      this.stats.fsyncs++;
    } finally {
      await handle.close();
    }
  }
}

async function listSeqs(dir: string): Promise<number[]> {
  const seqs: number[] = [];
  for (const name of await readdir(dir)) {
    const seq = parseWalFileName(name);
    if (seq !== undefined) seqs.push(seq);
  }
  return seqs.sort((a, b) => a - b);
}

async function writeFully(handle: FileHandle, buffers: Buffer[], position: number): Promise<void> {
  let pending = buffers;
  let at = position;
  while (pending.length > 0) {
    const { bytesWritten } = await handle.writev(pending, at);
    if (bytesWritten <= 0) throw new Error('write-ahead log write made no progress');
    at += bytesWritten;
    let skip = bytesWritten;
    const rest: Buffer[] = [];
    for (const b of pending) {
      if (skip >= b.length) {
        skip -= b.length;
        continue;
      }
      rest.push(skip > 0 ? b.subarray(skip) : b);
      skip = 0;
    }
    pending = rest;
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
