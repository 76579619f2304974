/**
 * One index on this node: its mapping, the memtable taking writes, memtables being flushed, and
 * the immutable segments. Searches see all of them; a flush turns the oldest memtable into a
 * segment file, commits it to the catalog, then swaps it in.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { SegmentReader } from '../segment-reader.js';
import type { SearchTarget } from '../search/types.js';
import { IndexMapping } from '../mapping/index.js';
import { Memtable } from '../memtable/index.js';
import { openSegment } from '../segment/index.js';
import { persistSegment, type PersistTarget } from './persist-segment.js';
import type { SegmentWriterPool } from '../segment-writer-pool/index.js';
import { DocumentScanner, FieldSlots, type ShardWriteBatch } from '../ingest/index.js';
import type { EngineCatalog, IndexRecord, SegmentRecord, SegmentStore } from '../catalog/index.js';

export type ClosableSegmentReader = SegmentReader & { close(): void };

export interface OpenSegment {
  record: SegmentRecord;
  /** null while the index is released for idleness; reopened on the next search */
  reader: ClosableSegmentReader | null;
}

interface PendingMemtable {
  memtable: Memtable;
  /** bytes of the stored sources added: what waits to reach the object store */
  sourceBytes: number;
  /** WAL file holding this memtable's first document; null while empty */
  firstWalSeq: number | null;
}

export class IndexShard {
  readonly name: string;
  readonly uuid: string;
  readonly createdAtMs: number;
  readonly settings: Record<string, unknown>;
  readonly mapping: IndexMapping;
  /** the fast path of writes: JSON key bytes → mapped fields, and the document scanner */
  readonly fieldSlots: FieldSlots;
  readonly scanner: DocumentScanner;
  /** the fast path of a write-ahead log replay: stored sources, `_lid` included */
  readonly storedSourceScanner: DocumentScanner;
  private active: PendingMemtable;
  private readonly flushing: PendingMemtable[] = [];
  /**
   * While the write-ahead log is replayed: the memtable its documents go to. Their lids are
   * below those of writes taken meanwhile, so it is committed before any memtable after it.
   */
  private recovering: PendingMemtable | null = null;
  private recoveryEnded: Promise<void> = Promise.resolve();
  private endRecoveryWait: (() => void) | undefined;
  private segments: OpenSegment[] = [];
  private nextLidValue: number;
  private flushChain: Promise<void> = Promise.resolve();
  private mappingVersionCommitted: number;
  lastUsedMs = Date.now();
  /**
   * Called after each memtable is committed as a segment, before any queued after it: its WAL
   * files may go and a merge may be due even while writes keep the flush queue from emptying
   */
  onSegmentFlushed: (() => void) | undefined;
  /** set once the shard is closed or its index deleted: background work stops */
  closed = false;

  constructor(
    record: IndexRecord,
    segments: OpenSegment[],
    private readonly dataDir: string,
    private readonly catalog: EngineCatalog,
    private readonly store: SegmentStore,
    /** the thread flushes write memtable snapshots on */
    private readonly writer: SegmentWriterPool,
  ) {
    this.name = record.name;
    this.uuid = record.uuid;
    this.createdAtMs = record.createdAtMs;
    this.settings = record.settings;
    this.mapping = record.mappings ? IndexMapping.fromJSON(record.mappings) : new IndexMapping();
    this.mappingVersionCommitted = this.mapping.version;
    this.fieldSlots = new FieldSlots(this.mapping);
    this.scanner = new DocumentScanner(this.fieldSlots);
    this.storedSourceScanner = new DocumentScanner(this.fieldSlots, true);
    this.segments = [...segments].sort((a, b) => a.record.maxLid - b.record.maxLid);
    this.nextLidValue = this.durableMaxLid() + 1;
    this.active = newPending();
  }

  /** Largest `_lid` held by committed segments: WAL replay skips documents at or below it. */
  durableMaxLid(): number {
    let max = 0;
    for (const s of this.segments) max = Math.max(max, s.record.maxLid);
    return max;
  }

  /** The `_lid` the next accepted document gets. */
  peekLid(): number {
    return this.nextLidValue;
  }

  takeLid(): number {
    return this.nextLidValue++;
  }

  /** After replay: lids already handed out must not be handed out again. */
  observeLid(lid: number): void {
    if (lid >= this.nextLidValue) this.nextLidValue = lid + 1;
  }

  /** the writes being added to memtables, one after the other (lids stay in order) */
  private adding: Promise<void> = Promise.resolve();

  /**
   * Adds the documents of a write whose WAL record (`batch.walRecord`) is on disk, in slices
   * with a turn of the event loop between them: a large bulk request does not hold up searches
   * and health probes for the whole of its indexing. Writes are added in the order they call.
   */
  addBatch(batch: ShardWriteBatch, walSeq: number, indexed?: (fields: number, tokens: number) => void): Promise<void> {
    const added = this.adding.then(async () => {
      for (let first = 0; first < batch.size; first += ADD_SLICE_DOCS) {
        if (first > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        // a flush may have moved the memtable on meanwhile: the rest goes to the new one
        addTo(this.active, batch, walSeq, indexed, first, Math.min(batch.size, first + ADD_SLICE_DOCS));
      }
      this.lastUsedMs = Date.now();
    });
    this.adding = added.catch(() => undefined);
    return added;
  }

  /** The write-ahead log holds documents of this index to replay: they get a memtable of their own. */
  beginRecovery(): void {
    if (this.recovering) return;
    this.recovering = newPending();
    this.recoveryEnded = new Promise((resolve) => (this.endRecoveryWait = resolve));
  }

  /** Adds replayed documents (see beginRecovery). */
  addRecovered(batch: ShardWriteBatch, walSeq: number): void {
    if (!this.recovering) throw new Error(`index [${this.name}] is not recovering`);
    addTo(this.recovering, batch, walSeq);
  }

  /**
   * The replay is done: its memtable takes writes when none came meanwhile, else it is flushed
   * ahead of theirs. Flushes asked for during the replay go on from here.
   */
  endRecovery(): void {
    const recovered = this.recovering;
    if (!recovered) return;
    this.recovering = null;
    // it may take writes only when no memtable with higher lids exists, queued or active
    if (this.active.memtable.numDocs === 0 && this.flushing.length === 0) this.active = recovered;
    else if (recovered.memtable.numDocs > 0) {
      this.flushing.unshift(recovered);
      void this.drainFlushQueue().catch(() => undefined);
    }
    this.endRecoveryWait?.();
  }

  /** Memtables not yet committed, in lid order: the replayed one, those being flushed, the active one. */
  private pendingMemtables(): PendingMemtable[] {
    return this.recovering ? [this.recovering, ...this.flushing, this.active] : [...this.flushing, this.active];
  }

  get memtableBytes(): number {
    return this.active.memtable.approxBytes;
  }

  get memtableAgeMs(): number {
    return this.active.memtable.numDocs === 0 ? 0 : Date.now() - this.active.memtable.createdAtMs;
  }

  /** Bytes held in memory that are not yet in segment files (the write budget counts these). */
  get unflushedBytes(): number {
    let total = 0;
    for (const p of this.pendingMemtables()) total += p.memtable.approxBytes;
    return total;
  }

  /** Source bytes of the memtable taking writes (not yet handed to a flush). */
  get activeSourceBytes(): number {
    return this.active.sourceBytes;
  }

  /** Document bytes accepted but not yet in a segment file in the object store (the write budget). */
  get pendingStorageBytes(): number {
    let total = 0;
    for (const p of this.pendingMemtables()) total += p.sourceBytes;
    return total;
  }

  /** Oldest WAL file that still holds unflushed documents of this index, or null. */
  oldestWalSeq(): number | null {
    let min: number | null = null;
    for (const p of this.pendingMemtables()) {
      if (p.firstWalSeq !== null && (min === null || p.firstWalSeq < min)) min = p.firstWalSeq;
    }
    return min;
  }

  get docCount(): number {
    let n = 0;
    for (const p of this.pendingMemtables()) n += p.memtable.numDocs;
    for (const s of this.segments) n += s.record.numDocs;
    return n;
  }

  get storeBytes(): number {
    let n = 0;
    for (const s of this.segments) n += s.record.sizeBytes;
    return n;
  }

  /** Memtables holding documents not yet in segment files: how many, and their approximate bytes. */
  get unflushedMemtables(): { count: number; bytes: number } {
    let count = 0;
    let bytes = 0;
    for (const p of this.pendingMemtables()) {
      if (p.memtable.numDocs === 0) continue;
      count++;
      bytes += p.memtable.approxBytes;
    }
    return { count, bytes };
  }

  segmentRecords(): SegmentRecord[] {
    return this.segments.map((s) => s.record);
  }

  /** Segments in order, oldest first, ending with the memtable being written. */
  searchTargets(): SearchTarget[] {
    this.lastUsedMs = Date.now();
    const targets: SearchTarget[] = [];
    for (const s of this.segments) {
      const filePath = path.join(this.dataDir, s.record.path);
      s.reader ??= openSegment(filePath, s.record.id);
      targets.push({ index: this.name, segment: s.reader, filePath });
    }
    for (const p of this.pendingMemtables()) targets.push({ index: this.name, segment: p.memtable });
    return targets;
  }

  /**
   * Flushes the current memtable into a segment file; resolves when it and any memtable left
   * over from a failed flush are committed. A failure keeps the memtable searchable and its
   * documents in the WAL; the next flush tries again.
   */
  flush(): Promise<void> {
    if (this.active.memtable.numDocs > 0) {
      this.flushing.push(this.active);
      this.active = newPending();
    }
    return this.drainFlushQueue();
  }

  /** Commits the queued memtables in order, after the replay's (which holds lower lids). */
  private drainFlushQueue(): Promise<void> {
    this.flushChain = this.flushChain
      .catch(() => undefined)
      .then(() => this.recoveryEnded)
      .then(async () => {
        while (this.flushing.length > 0) await this.flushOne(this.flushing[0]!);
      });
    return this.flushChain;
  }

  /** Persists a mapping change that no flush has carried yet (e.g. on an idle shard). */
  async commitMappingIfChanged(): Promise<void> {
    if (this.mapping.version === this.mappingVersionCommitted) return;
    const version = this.mapping.version;
    await this.catalog.updateMappings(this.name, this.mapping.toJSON());
    this.mappingVersionCommitted = version;
  }

  private async flushOne(pending: PendingMemtable): Promise<void> {
    // durable in the object store before the catalog names it and the WAL lets it go; a copy of
    // the memtable is written on the writer thread while the memtable keeps serving searches here
    const memtable = pending.memtable;
    const write = (outputPath: string) => this.writer.run({ kind: 'memtable-snapshot', snapshot: memtable.snapshot(), outputPath });
    const { record, filePath } = await persistSegment(write, this.persistTarget(0), memtable.id);
    const version = this.mapping.version;
    await this.catalog.commitSegment(record, this.mapping.toJSON());
    this.mappingVersionCommitted = Math.max(this.mappingVersionCommitted, version);
    this.segments.push({ record, reader: openSegment(filePath, record.id) });
    this.flushing.splice(this.flushing.indexOf(pending), 1);
    this.onSegmentFlushed?.();
  }

  /** Where this index's new segment files of a level go. */
  persistTarget(level: number): PersistTarget {
    return { dataDir: this.dataDir, store: this.store, index: this.name, indexUuid: this.uuid, level };
  }

  /** The live segment files with these ids, in the shard's order (oldest first), not opened. */
  segmentFilesForMerge(ids: readonly string[]): Array<{ record: SegmentRecord; filePath: string }> {
    const wanted = new Set(ids);
    return this.segments
      .filter((s) => wanted.has(s.record.id))
      .map((s) => ({ record: s.record, filePath: path.join(this.dataDir, s.record.path) }));
  }

  /** Replaces compacted segments (already committed by the catalog) with their merged file. */
  swapSegments(removedIds: ReadonlySet<string>, added: OpenSegment): OpenSegment[] {
    const removed = this.segments.filter((s) => removedIds.has(s.record.id));
    this.segments = this.segments.filter((s) => !removedIds.has(s.record.id));
    this.segments.push(added);
    this.segments.sort((a, b) => a.record.maxLid - b.record.maxLid);
    return removed;
  }

  /** Segment files currently open (0 once released). */
  get openSegmentFiles(): number {
    return this.segments.filter((s) => s.reader !== null).length;
  }

  /** True when nothing of this index is held in memory but open segment files. */
  get holdsOnlySegments(): boolean {
    return this.active.memtable.numDocs === 0 && this.flushing.length === 0 && this.recovering === null;
  }

  /**
   * Frees what an idle index holds: segment files are closed (with their caches) and reopened
   * by the next search. Only when every document is in segment files; returns whether it did.
   */
  release(): boolean {
    if (!this.holdsOnlySegments || this.segments.every((s) => s.reader === null)) return false;
    for (const s of this.segments) {
      s.reader?.close();
      s.reader = null;
    }
    return true;
  }

  /** Waits for running flushes, then closes segment files. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flushChain.catch(() => undefined);
    for (const s of this.segments) s.reader?.close();
    this.segments = [];
  }
}

function newPending(): PendingMemtable {
  return { memtable: new Memtable(randomUUID()), sourceBytes: 0, firstWalSeq: null };
}

/** Documents of a write added between two turns of the event loop (a few milliseconds of work). */
const ADD_SLICE_DOCS = 1_000;

function addTo(pending: PendingMemtable, batch: ShardWriteBatch, walSeq: number, indexed?: (fields: number, tokens: number) => void, first = 0, end = batch.size): void {
  if (end <= first) return;
  if (pending.firstWalSeq === null) pending.firstWalSeq = walSeq;
  batch.addTo(pending.memtable, indexed, first, end);
  pending.sourceBytes += batch.sourceBytesOf(first, end);
}
