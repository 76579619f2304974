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
import { SharedMemtable, type Indexer } from '../indexer/index.js';
import { DocumentScanner, FieldSlots, type ShardWriteBatch } from '../ingest/index.js';
import type { EngineCatalog, IndexRecord, SegmentRecord, SegmentStore } from '../catalog/index.js';
import { isClientKey } from '../../common/index.js';
import { splitIdentity } from '../document/index.js';
import { DeletedDocs, docOfLid } from './deleted-docs.js';

/** Where the live document of a client-supplied `_id` is: its `_lid`, and its `_version` (0: not read yet). */
export interface KeyEntry {
  lid: number;
  version: number;
}

/** A document found by `_lid`: in a segment (file or memtable), or in a write not yet added. */
export type LocatedDoc = { segment: SegmentReader; doc: number } | { batch: ShardWriteBatch; k: number };

export type ClosableSegmentReader = SegmentReader & { close(): void };

export interface OpenSegment {
  record: SegmentRecord;
  /** null while the index is released for idleness; reopened on the next search */
  reader: ClosableSegmentReader | null;
}

interface PendingMemtable {
  /** built here (replayed, or with no indexing thread), or on an indexing thread */
  memtable: Memtable | SharedMemtable;
  /** documents sent to it (an indexing thread may not have added them all yet) */
  docs: number;
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
  /** set while the index is handed over to another node: writes to it are refused */
  leaving = false;
  /** writes taken and not yet finished, and who waits for them to end (see writesDone) */
  private writes = 0;
  private writesEnded: Array<() => void> = [];
  /** deleted and replaced documents, by `_lid` */
  readonly deleted = new DeletedDocs();
  /** client-supplied `_id` key → its live document */
  private readonly keys = new Map<bigint, KeyEntry>();
  /** documents of writes logged but not yet added to a memtable, by `_lid` (client-supplied ids only) */
  readonly inFlight = new Map<number, { batch: ShardWriteBatch; k: number }>();
  /** oldest WAL file holding a delete not yet in the catalog, and when the first such came */
  private deletesWalSeq: number | null = null;
  private deletesSinceMs = 0;
  /** the same for the deletes a catalog update is writing now */
  private persistingDeletesSeq: number | null = null;
  /** catalog updates of deleted docs and merge swaps, one at a time (see persistDeletes) */
  private deletesLock: Promise<void> = Promise.resolve();
  /** flushed segments being committed: in the catalog a moment before they are held here */
  private readonly committing = new Set<string>();

  constructor(
    record: IndexRecord,
    segments: OpenSegment[],
    private readonly dataDir: string,
    private readonly catalog: EngineCatalog,
    private readonly store: SegmentStore,
    /** the thread flushes write memtable snapshots on */
    private readonly writer: SegmentWriterPool,
    /** the threads new memtables are built on; null: on this thread */
    private readonly indexer: Indexer | null = null,
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
    this.active = this.newPending();
    for (const s of this.segments) for (const lid of s.record.deletedLids ?? []) this.deleted.add(lid);
    for (const s of this.segments) if (s.reader) this.indexKeys(s.reader);
  }

  /** Adds the client-supplied `_id`s of a segment to the key map (at load). */
  private indexKeys(segment: SegmentReader): void {
    const ids = segment.ids();
    let lids: Float64Array | null = null;
    for (let d = 0; d < segment.numDocs; d++) {
      const key = ids[d]!;
      if (!isClientKey(key)) continue;
      lids ??= segment.numeric('_lid')!;
      this.noteKey(key, lids[d]!, 0);
    }
  }

  /**
   * A document with a client-supplied `_id` key at `lid` (loaded or replayed): the newest lid of
   * a key is its live document, any older one is deleted (a replace whose delete was not kept).
   */
  noteKey(key: bigint, lid: number, version: number): void {
    if (this.deleted.has(lid)) return;
    const existing = this.keys.get(key);
    if (existing !== undefined) {
      if (existing.lid > lid) {
        this.deleted.add(lid);
        return;
      }
      if (existing.lid < lid) this.deleted.add(existing.lid);
    }
    this.keys.set(key, { lid, version });
  }

  /** The live document of a client-supplied `_id` key, if any. */
  keyEntry(key: bigint): KeyEntry | undefined {
    return this.keys.get(key);
  }

  /** Points a key at a new document (undefined: the key has none now); returns what it held. */
  setKey(key: bigint, entry: KeyEntry | undefined): KeyEntry | undefined {
    const previous = this.keys.get(key);
    if (entry === undefined) this.keys.delete(key);
    else this.keys.set(key, entry);
    return previous;
  }

  /** The version of a key's document, read from its stored source the first time it is asked. */
  versionOf(entry: KeyEntry): number {
    if (entry.version === 0) {
      const source = this.sourceOfLid(entry.lid);
      entry.version = (source !== null ? splitIdentity(source)?.identity.version : undefined) ?? 1;
    }
    return entry.version;
  }

  /** Finds a document by `_lid`: in a write not yet added, a memtable or a segment file. */
  locate(lid: number): LocatedDoc | null {
    const pending = this.inFlight.get(lid);
    if (pending !== undefined) return pending;
    for (const target of this.searchTargets()) {
      const doc = docOfLid(target.segment, lid);
      if (doc >= 0) return { segment: target.segment, doc };
    }
    return null;
  }

  /** The stored source of the document with `_lid`, or null. */
  sourceOfLid(lid: number): string | null {
    const found = this.locate(lid);
    if (found === null) return null;
    return 'batch' in found ? found.batch.sourceOf(found.k) : found.segment.source(found.doc);
  }

  /**
   * The live document with a generated `_id`, looked for in every segment (by each file's id
   * index, a memtable's ids scanned); null when none.
   */
  findGenerated(id: bigint): { segment: SegmentReader; doc: number; lid: number } | null {
    for (const target of this.searchTargets()) {
      const segment = target.segment;
      const d = segment.docOfGeneratedId !== undefined ? segment.docOfGeneratedId(id) : scanIds(segment, id);
      if (d < 0) continue;
      const lid = segment.numeric('_lid')![d]!;
      if (this.deleted.has(lid)) return null;
      return { segment, doc: d, lid };
    }
    return null;
  }

  /**
   * Deletes whose write-ahead log record is durable: their documents stop showing at once, and
   * the log keeps the record until the catalog holds them (persistDeletes).
   */
  applyDeletes(lids: readonly number[], walSeq: number): void {
    if (lids.length === 0) return;
    for (const lid of lids) this.deleted.add(lid);
    if (this.deletesWalSeq === null) {
      this.deletesWalSeq = walSeq;
      this.deletesSinceMs = Date.now();
    } else {
      this.deletesWalSeq = Math.min(this.deletesWalSeq, walSeq);
    }
  }

  /** A delete read back from the write-ahead log at open. */
  replayDelete(key: bigint, lid: number, walSeq: number): void {
    if (this.keys.get(key)?.lid === lid) this.keys.delete(key);
    this.applyDeletes([lid], walSeq);
  }

  /** Runs `fn` with no other catalog update of deleted docs (or merge swap) in between. */
  withDeletesLock<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.deletesLock.then(fn);
    this.deletesLock = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Writes each segment's deleted `_lid`s to the catalog where they changed, so that the
   * write-ahead log may let the delete records go. Deletes of documents still in memtables are
   * kept by the log until their memtable's segment is committed (and then written here).
   */
  persistDeletes(): Promise<void> {
    return this.withDeletesLock(async () => {
      const seq = this.deletesWalSeq;
      // an index that never deleted anything has nothing to record: no segment to reopen
      if (seq === null && this.deleted.size === 0) return;
      this.deletesWalSeq = null;
      this.persistingDeletesSeq = seq;
      try {
        const changes: Array<{ segmentId: string; deletedLids: number[] }> = [];
        for (const s of this.segments) {
          const filePath = path.join(this.dataDir, s.record.path);
          s.reader ??= openSegment(filePath, s.record.id);
          const lids = this.deleted.lidsOf(s.reader);
          if (lids.length !== (s.record.deletedLids?.length ?? 0)) changes.push({ segmentId: s.record.id, deletedLids: lids });
        }
        if (changes.length > 0) await this.catalog.updateDeletedLids(this.name, changes);
        for (const change of changes) {
          const s = this.segments.find((x) => x.record.id === change.segmentId);
          if (s) s.record = { ...s.record, deletedLids: change.deletedLids };
        }
      } catch (err) {
        if (seq !== null) {
          this.deletesWalSeq = this.deletesWalSeq === null ? seq : Math.min(this.deletesWalSeq, seq);
          this.deletesSinceMs ||= Date.now();
        }
        throw err;
      } finally {
        this.persistingDeletesSeq = null;
      }
    });
  }

  /** True while deletes wait for the catalog. */
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
    const turn = this.adding.then(async (): Promise<{ sent: Promise<void> } | undefined> => {
      this.lastUsedMs = Date.now();
      for (let first = 0; first < batch.size; ) {
        // a flush may have moved the memtable on meanwhile: the rest goes to the new one
        const target = this.active;
        // to an indexing thread the rest goes at once; the next write need not wait for it
        if (target.memtable instanceof SharedMemtable) return { sent: sendTo(target, target.memtable, batch, walSeq, indexed, first) };
        const end = Math.min(batch.size, first + ADD_SLICE_DOCS);
        addTo(target, batch, walSeq, indexed, first, end);
        first = end;
        if (first < batch.size) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      return undefined;
    });
    this.adding = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn.then((r) => r?.sent);
  }

  /** The write-ahead log holds documents of this index to replay: they get a memtable of their own. */
  beginRecovery(): void {
    if (this.recovering) return;
    this.recovering = newLocalPending();
    this.recoveryEnded = new Promise((resolve) => (this.endRecoveryWait = resolve));
  }

  /** True between beginRecovery and endRecovery. */
  get isRecovering(): boolean {
    return this.recovering !== null;
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
    if (this.active.docs === 0 && this.flushing.length === 0) this.active = recovered;
    else if (recovered.docs > 0) {
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

  /** Age of the oldest write waiting for a flush: the active memtable's, or a delete's. */
  get memtableAgeMs(): number {
    const memtable = this.active.docs === 0 ? 0 : Date.now() - this.active.memtable.createdAtMs;
    return this.deletesWalSeq === null ? memtable : Math.max(memtable, Date.now() - this.deletesSinceMs);
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
    for (const seq of [this.deletesWalSeq, this.persistingDeletesSeq]) {
      if (seq !== null && (min === null || seq < min)) min = seq;
    }
    return min;
  }

  /** Live documents: deleted and replaced ones not counted. */
  get docCount(): number {
    let n = 0;
    for (const p of this.pendingMemtables()) n += p.memtable.numDocs - (this.deleted.docsOf(p.memtable)?.length ?? 0);
    for (const s of this.segments) n += s.record.numDocs - (s.reader ? (this.deleted.docsOf(s.reader)?.length ?? 0) : (s.record.deletedLids?.length ?? 0));
    return n;
  }

  /** Deleted and replaced documents that segments and memtables still hold (until a merge drops them). */
  get deletedDocCount(): number {
    let n = 0;
    for (const p of this.pendingMemtables()) n += this.deleted.docsOf(p.memtable)?.length ?? 0;
    for (const s of this.segments) n += s.reader ? (this.deleted.docsOf(s.reader)?.length ?? 0) : (s.record.deletedLids?.length ?? 0);
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
      if (p.docs === 0) continue;
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
      targets.push({ index: this.name, segment: s.reader, filePath, deleted: this.deleted.docsOf(s.reader) });
    }
    for (const p of this.pendingMemtables()) targets.push({ index: this.name, segment: p.memtable, deleted: this.deleted.docsOf(p.memtable) });
    return targets;
  }

  /**
   * Flushes the current memtable into a segment file; resolves when it and any memtable left
   * over from a failed flush are committed. A failure keeps the memtable searchable and its
   * documents in the WAL; the next flush tries again.
   */
  flush(): Promise<void> {
    if (this.active.docs > 0) {
      this.flushing.push(this.active);
      this.active = this.newPending();
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
        // deletes with nothing to flush: into the catalog, then the log may let them go
        if (this.deletesWalSeq !== null) {
          await this.persistDeletes();
          this.onSegmentFlushed?.();
        }
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
    // one built on an indexing thread is handed over without a copy: the thread writes it no more
    const snapshot = memtable instanceof SharedMemtable ? await memtable.freeze() : memtable.snapshot();
    const write = (outputPath: string) => this.writer.run({ kind: 'memtable-snapshot', snapshot, outputPath });
    const { record, filePath } = await persistSegment(write, this.persistTarget(0), memtable.id);
    const version = this.mapping.version;
    this.committing.add(record.id);
    try {
      await this.catalog.commitSegment(record, this.mapping.toJSON());
      this.mappingVersionCommitted = Math.max(this.mappingVersionCommitted, version);
      this.segments.push({ record, reader: openSegment(filePath, record.id) });
    } finally {
      this.committing.delete(record.id);
    }
    this.flushing.splice(this.flushing.indexOf(pending), 1);
    // the deletes of its documents, and any other logged since, before the log lets them go
    await this.persistDeletes();
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

  /** The deleted docs of these live segments: doc ids per segment, and their `_lid`s. */
  deletedInSegments(ids: readonly string[]): { docs: Map<string, Uint32Array>; lids: number[]; lidSet: Set<number> } {
    const wanted = new Set(ids);
    const docs = new Map<string, Uint32Array>();
    const lids: number[] = [];
    for (const s of this.segments) {
      if (!wanted.has(s.record.id)) continue;
      s.reader ??= openSegment(path.join(this.dataDir, s.record.path), s.record.id);
      const deleted = this.deleted.docsOf(s.reader);
      if (deleted === undefined) continue;
      docs.set(s.record.id, deleted);
      for (const lid of this.deleted.lidsOf(s.reader)) lids.push(lid);
    }
    return { docs, lids, lidSet: new Set(lids) };
  }

  /**
   * Merges another process committed (the storage role of a cluster), from the catalog's live
   * segments read after `heldBefore` (this shard's segment ids) was taken: the segments held
   * then that are no longer live, and the live ones this shard does not hold (a flush being
   * committed here aside). Nothing when either side is empty: a merge replaces some segments.
   */
  mergedElsewhere(heldBefore: ReadonlySet<string>, live: readonly SegmentRecord[]): { removed: Set<string>; added: SegmentRecord[] } {
    const liveIds = new Set(live.map((r) => r.id));
    const held = new Set(this.segments.map((s) => s.record.id));
    const removed = new Set([...heldBefore].filter((id) => held.has(id) && !liveIds.has(id)));
    const added = live.filter((r) => !held.has(r.id) && !this.committing.has(r.id));
    if (removed.size === 0 || added.length === 0) return { removed: new Set(), added: [] };
    return { removed, added };
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
    return this.active.docs === 0 && this.flushing.length === 0 && this.recovering === null && this.deletesWalSeq === null;
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

  /** A new memtable to take writes: on an indexing thread when there is one. */
  private newPending(): PendingMemtable {
    if (this.indexer === null || this.indexer.size === 0) return newLocalPending();
    return { memtable: new SharedMemtable(randomUUID(), this.indexer.assign()), docs: 0, sourceBytes: 0, firstWalSeq: null };
  }

  /** A write to this index begins (its documents got their lids); writeEnded follows it. */
  writeBegan(): void {
    this.writes++;
  }

  writeEnded(): void {
    if (--this.writes > 0) return;
    for (const resolve of this.writesEnded.splice(0)) resolve();
  }

  /** Resolves when no write to this index is running. */
  writesDone(): Promise<void> {
    if (this.writes === 0) return Promise.resolve();
    return new Promise((resolve) => this.writesEnded.push(resolve));
  }

  /** Waits for running flushes, then closes segment files. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flushChain.catch(() => undefined);
    for (const p of this.pendingMemtables()) if (p.memtable instanceof SharedMemtable) p.memtable.discard();
    for (const s of this.segments) s.reader?.close();
    this.segments = [];
  }
}

/** The first doc of a segment with `_id` `id`, or -1, by a scan of its ids. */
function scanIds(segment: SegmentReader, id: bigint): number {
  const ids = segment.ids();
  const n = segment.numDocs;
  for (let d = 0; d < n; d++) if (ids[d] === id) return d;
  return -1;
}

function newLocalPending(): PendingMemtable {
  return { memtable: new Memtable(randomUUID()), docs: 0, sourceBytes: 0, firstWalSeq: null };
}

/** Documents of a write added between two turns of the event loop (a few milliseconds of work). */
const ADD_SLICE_DOCS = 1_000;

function addTo(pending: PendingMemtable, batch: ShardWriteBatch, walSeq: number, indexed?: (fields: number, tokens: number) => void, first = 0, end = batch.size): void {
  if (end <= first) return;
  if (pending.firstWalSeq === null) pending.firstWalSeq = walSeq;
  batch.addTo(pending.memtable as Memtable, indexed, first, end);
  pending.docs += end - first;
  pending.sourceBytes += batch.sourceBytesOf(first, end);
}

/** Sends documents [first, batch.size) to the indexing thread of `memtable`; resolves once they are searchable. */
async function sendTo(pending: PendingMemtable, memtable: SharedMemtable, batch: ShardWriteBatch, walSeq: number, indexed: ((fields: number, tokens: number) => void) | undefined, first: number): Promise<void> {
  const end = batch.size;
  if (end <= first) return;
  if (pending.firstWalSeq === null) pending.firstWalSeq = walSeq;
  pending.docs += end - first;
  pending.sourceBytes += batch.sourceBytesOf(first, end);
  const { job, transfer } = batch.indexingJob(first);
  const reply = await memtable.add(job, transfer);
  if (indexed === undefined) return;
  for (let k = 0; k < reply.fieldCounts.length; k++) indexed(reply.fieldCounts[k]!, reply.tokenCounts[k]!);
}
