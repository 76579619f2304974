/**
 * Where a memtable's arrays live. On an indexing thread they are SharedArrayBuffers, so that the
 * main thread searches the memtable in place (src/engine/indexer) and a flush hands it to the
 * segment writer without a copy; elsewhere they are ordinary ArrayBuffers.
 */

let shared = false;
/** bytes of shared memory allocated so far (see sharedBytesAllocated) */
let sharedBytes = 0;

/** Called once by an indexing thread before it builds any memtable. */
export function shareMemtableMemory(): void {
  shared = true;
}

function backing(bytes: number): ArrayBuffer | SharedArrayBuffer {
  if (!shared) return new ArrayBuffer(bytes);
  sharedBytes += bytes;
  return new SharedArrayBuffer(bytes);
}

/**
 * Shared memory allocated on this thread so far. V8 counts a SharedArrayBuffer as no memory of
 * the thread that made it, so garbage of them never starts a collection there: the indexing
 * thread collects by this count instead.
 */
export function sharedBytesAllocated(): number {
  return sharedBytes;
}

export function newU8(length: number): Uint8Array {
  return new Uint8Array(backing(length));
}

export function newU32(length: number): Uint32Array {
  return new Uint32Array(backing(length * 4));
}

export function newI32(length: number): Int32Array {
  return new Int32Array(backing(length * 4));
}

export function newF64(length: number): Float64Array {
  return new Float64Array(backing(length * 8));
}

export function newBigU64(length: number): BigUint64Array {
  return new BigUint64Array(backing(length * 8));
}

/** A Buffer of `length` bytes (not zeroed when not shared). */
export function newBuffer(length: number): Buffer {
  return shared ? Buffer.from(backing(length)) : Buffer.allocUnsafe(length);
}

/** The buffers of `arrays` that are not shared: those a transfer to another thread may move. */
export function transferableBuffers(arrays: ReadonlyArray<{ buffer: ArrayBufferLike }>): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const a of arrays) if (a.buffer instanceof ArrayBuffer) out.push(a.buffer);
  return out;
}
