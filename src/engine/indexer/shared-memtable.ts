/**
 * A memtable built on an indexing thread, as the main thread sees it: a SegmentReader over the
 * thread's shared arrays. Every read goes through `current()`, which takes a lease on the thread
 * (indexer.ts) unless every write sent has been indexed and the arrays held are those of after
 * it; a reader built under a lease is not used after it, since the thread rewrites per-term
 * tables in place.
 */
import { Memtable, type MemtableSnapshot } from '../memtable/index.js';
import type { FieldInfo, FieldType, OrdinalColumn, PositionPostings, SegmentReader } from '../segment-reader.js';
import type { AddedReply, IndexerThread, PublishedMemtable } from './indexer.js';
import type { IndexingJobBody } from '../ingest/index.js';
import type { MemtableFigures } from './messages.js';

export class SharedMemtable implements SegmentReader, PublishedMemtable {
  readonly live = true;
  readonly createdAtMs = Date.now();
  private figures: MemtableFigures = { approxBytes: 0 };
  /** writes sent to the thread, and those it answered */
  private sent = 0;
  private done = 0;
  /** a read-only Memtable over the last arrays published (null: none yet) */
  private reader: Memtable | null = null;
  /**
   * writes done when `reader` was published: it holds every write sent while that is still the
   * count of writes done and of writes sent (sent only grows, so none was pending then)
   */
  private readerDone = 0;
  /** the final arrays: the thread writes no more */
  private frozen = false;
  private frozenSnapshot: MemtableSnapshot | null = null;
  private static readonly EMPTY = new Memtable('');

  constructor(
    readonly id: string,
    private readonly thread: IndexerThread,
  ) {
    thread.register(id, this);
  }

  /** Estimated bytes the memtable holds, as of the last write indexed. */
  get approxBytes(): number {
    return this.figures.approxBytes;
  }

  /** Indexes a write's documents on the thread; resolves with the per-document counts once searchable. */
  async add(body: IndexingJobBody, transfer: ArrayBuffer[]): Promise<AddedReply> {
    if (this.frozen) throw new Error(`memtable ${this.id} is frozen`);
    this.sent++;
    try {
      const reply = await this.thread.add(this.id, body, transfer);
      this.figures = reply.figures;
      return reply;
    } finally {
      this.done++;
    }
  }

  /** Takes no more writes; returns the memtable's arrays, to write its segment file from. */
  async freeze(): Promise<MemtableSnapshot> {
    // a flush that failed asks again: the thread forgot the memtable the first time
    if (this.frozenSnapshot !== null) return this.frozenSnapshot;
    const snapshot = { ...((await this.thread.freeze(this.id)) ?? SharedMemtable.EMPTY.shared()), id: this.id };
    this.frozen = true;
    this.frozenSnapshot = snapshot;
    this.adopt(snapshot, this.figures);
    return snapshot;
  }

  /** The memtable is dropped unflushed (its index is deleted or closed): the thread lets it go. */
  discard(): void {
    if (this.frozen) return;
    this.frozen = true;
    this.thread.freeze(this.id).catch(() => undefined);
  }

  adopt(snapshot: MemtableSnapshot, figures: MemtableFigures): void {
    const previous = this.reader;
    const reader = new Memtable(this.id, snapshot);
    if (previous !== null) reader.inheritCaches(previous);
    this.reader = reader;
    this.figures = figures;
    this.readerDone = this.done;
  }

  /** The reader to read now (see the file comment). */
  private current(): Memtable {
    if (this.frozen || this.thread.leased) return this.reader ?? SharedMemtable.EMPTY;
    if (this.sent === this.done && this.readerDone === this.done) return this.reader ?? SharedMemtable.EMPTY;
    this.thread.lease();
    return this.reader ?? SharedMemtable.EMPTY;
  }

  get numDocs(): number {
    return this.current().numDocs;
  }

  get minTs(): number {
    return this.current().minTs;
  }

  get maxTs(): number {
    return this.current().maxTs;
  }

  get maxLid(): number {
    return this.current().maxLid;
  }

  fields(): readonly FieldInfo[] {
    return this.current().fields();
  }

  fieldType(field: string): FieldType | undefined {
    return this.current().fieldType(field);
  }

  terms(field: string, from?: string): Iterable<string> {
    return this.current().terms(field, from);
  }

  docFreq(field: string, term: string): number {
    return this.current().docFreq(field, term);
  }

  postings(field: string, term: string): Uint32Array | null {
    return this.current().postings(field, term);
  }

  positions(field: string, term: string): PositionPostings | null {
    return this.current().positions(field, term);
  }

  numeric(field: string): Float64Array | null {
    return this.current().numeric(field);
  }

  ordinals(field: string): OrdinalColumn | null {
    return this.current().ordinals(field);
  }

  exists(field: string): Uint32Array {
    return this.current().exists(field);
  }

  ids(): BigUint64Array {
    return this.current().ids();
  }

  source(doc: number): string {
    return this.current().source(doc);
  }

  sourceBytes(doc: number): Uint8Array {
    return this.current().sourceBytes(doc);
  }
}
