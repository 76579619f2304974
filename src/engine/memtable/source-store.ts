/**
 * Stored document sources as UTF-8 in 1 MiB Buffers, off the JS heap: a million source strings
 * on the heap would make every major garbage collection walk them. Per doc: chunk, offset, length.
 */
import { U32List } from './growable.js';
import { newBuffer } from './memory.js';

const CHUNK_BYTES = 1 << 20;

export interface SourceStoreSnapshot {
  chunks: Uint8Array[];
  chunkOf: Uint32Array;
  offsets: Uint32Array;
  lengths: Uint32Array;
}

export class SourceStore {
  private readonly chunks: Buffer[] = [];
  private current: Buffer = Buffer.allocUnsafe(0);
  private used = 0;
  private chunkOf = new U32List(1024);
  private offsets = new U32List(1024);
  private lengths = new U32List(1024);
  private chunkBytes = 0;

  snapshot(): SourceStoreSnapshot {
    const chunks = this.chunks.map((c, i) => new Uint8Array(c.buffer, c.byteOffset, i === this.chunks.length - 1 ? this.used : c.length).slice());
    return { chunks, chunkOf: this.chunkOf.copy(), offsets: this.offsets.copy(), lengths: this.lengths.copy() };
  }

  /** The arrays without a copy (appends go past them or to new arrays). */
  shared(): SourceStoreSnapshot {
    const chunks = this.chunks.map((c, i) => new Uint8Array(c.buffer, c.byteOffset, i === this.chunks.length - 1 ? this.used : c.length));
    return { chunks, chunkOf: this.chunkOf.shared(), offsets: this.offsets.shared(), lengths: this.lengths.shared() };
  }

  /** A read-only store over a snapshot's arrays. */
  static restore(s: SourceStoreSnapshot): SourceStore {
    const store = new SourceStore();
    for (const c of s.chunks) store.chunks.push(Buffer.from(c.buffer, c.byteOffset, c.byteLength));
    store.chunkOf = U32List.of(s.chunkOf);
    store.offsets = U32List.of(s.offsets);
    store.lengths = U32List.of(s.lengths);
    return store;
  }

  get count(): number {
    return this.lengths.length;
  }

  get byteSize(): number {
    return this.chunkBytes + this.chunkOf.data.byteLength * 3;
  }

  add(source: string): void {
    // a UTF-16 unit takes at most 3 UTF-8 bytes: measure only when the rest of the chunk may be short
    if (this.chunks.length === 0 || this.current.length - this.used < source.length * 3) {
      const bytes = Buffer.byteLength(source, 'utf8');
      if (this.chunks.length === 0 || this.current.length - this.used < bytes) this.newChunk(bytes);
    }
    const written = this.current.write(source, this.used, 'utf8');
    this.chunkOf.push(this.chunks.length - 1);
    this.offsets.push(this.used);
    this.lengths.push(written);
    this.used += written;
  }

  /** Adds a source given as UTF-8 bytes [start, end) of `bytes`. */
  addBytes(bytes: Uint8Array, start: number, end: number): void {
    const length = end - start;
    if (this.chunks.length === 0 || this.current.length - this.used < length) this.newChunk(length);
    this.current.set(bytes.subarray(start, end), this.used);
    this.chunkOf.push(this.chunks.length - 1);
    this.offsets.push(this.used);
    this.lengths.push(length);
    this.used += length;
  }

  get(doc: number): string {
    const start = this.offsets.data[doc]!;
    return this.chunks[this.chunkOf.data[doc]!]!.toString('utf8', start, start + this.lengths.data[doc]!);
  }

  /** The UTF-8 bytes of doc `doc` (a view into its chunk). */
  bytes(doc: number): Uint8Array {
    const start = this.offsets.data[doc]!;
    return this.chunks[this.chunkOf.data[doc]!]!.subarray(start, start + this.lengths.data[doc]!);
  }

  private newChunk(atLeast: number): void {
    this.current = newBuffer(Math.max(CHUNK_BYTES, atLeast));
    this.chunks.push(this.current);
    this.chunkBytes += this.current.length;
    this.used = 0;
  }
}
