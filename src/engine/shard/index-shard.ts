/**
 * One index on this node: its mapping, the memtable taking writes, memtables being flushed, and
 * the immutable segments. Searches see all of them; a flush turns the oldest memtable into a
 * segment file, commits it to the catalog, then swaps it in.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { SegmentReader } from '../segment-reader.js';
import type { SearchTarget } from '../search/types.js';
import type { IndexedDocument } from '../document/index.js';
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
  private active: PendingMemtable;
  private readonly flushing: PendingMemtable[] = [];
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
    this.segments = [...segments].sort((a, b) => a.record.maxLid - b.record.maxLid);
    this.nextLidValue = this.durableMaxLid() + 1;
    this.active = { memtable: new Memtable(randomUUID()), sourceBytes: 0, firstWalSeq: null };
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

  /** Adds durable documents (their WAL record is on disk) so they are searchable at once. */
  addDurable(docs: readonly IndexedDocument[], walSeq: number): void {
    if (docs.length === 0) return;
    if (this.active.firstWalSeq === null) this.active.firstWalSeq = walSeq;
    for (const doc of docs) {
      this.active.memtable.add(doc);
      this.active.sourceBytes += doc.source.length;
    }
    this.lastUsedMs = Date.now();
  }

  /** Adds the documents of a write whose WAL record (`batch.walRecord`) is on disk. */
  addBatch(batch: ShardWriteBatch, walSeq: number, indexed?: (fields: number, tokens: number) => void): void {
    if (batch.size === 0) return;
    if (this.active.firstWalSeq === null) this.active.firstWalSeq = walSeq;
    batch.addTo(this.active.memtable, indexed);
    this.active.sourceBytes += batch.sourceBytes;
    this.lastUsedMs = Date.now();
  }

  get memtableBytes(): number {
    return this.active.memtable.approxBytes;
  }

  get memtableAgeMs(): number {
    return this.active.memtable.numDocs === 0 ? 0 : Date.now() - this.active.memtable.createdAtMs;
  }

  /** Bytes held in memory that are not yet in segment files (the write budget counts these). */
  get unflushedBytes(): number {
    let total = this.active.memtable.approxBytes;
    for (const p of this.flushing) total += p.memtable.approxBytes;
    return total;
  }

  /** Document bytes accepted but not yet in a segment file in the object store (the write budget). */
  get pendingStorageBytes(): number {
    let total = this.active.sourceBytes;
    for (const p of this.flushing) total += p.sourceBytes;
    return total;
  }

  /** Oldest WAL file that still holds unflushed documents of this index, or null. */
  oldestWalSeq(): number | null {
    let min: number | null = null;
    for (const p of [...this.flushing, this.active]) {
      if (p.firstWalSeq !== null && (min === null || p.firstWalSeq < min)) min = p.firstWalSeq;
    }
    return min;
  }

  get docCount(): number {
    let n = this.active.memtable.numDocs;
    for (const p of this.flushing) n += p.memtable.numDocs;
    for (const s of this.segments) n += s.record.numDocs;
    return n;
  }

  get storeBytes(): number {
    let n = 0;
    for (const s of this.segments) n += s.record.sizeBytes;
    return n;
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
    for (const p of this.flushing) targets.push({ index: this.name, segment: p.memtable });
    targets.push({ index: this.name, segment: this.active.memtable });
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
      this.active = { memtable: new Memtable(randomUUID()), sourceBytes: 0, firstWalSeq: null };
    }
    this.flushChain = this.flushChain
      .catch(() => undefined)
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
    return this.active.memtable.numDocs === 0 && this.flushing.length === 0;
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
