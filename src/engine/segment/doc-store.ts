/**
 * The doc store: blocks of the stored sources of consecutive docs, each compressed on its own
 * with Brotli so that a source read decompresses one block. Version 2 blocks are column-wise
 * (doc-block-encoder.ts: shapes, per-key value streams, the free text as one stream); version 1
 * blocks held the texts whole (doc-block-v1.ts) and are still read.
 *
 * Block size and codec, measured on the benchmark corpus (docs/segment-format.md): blocks of
 * 1 Mi code units of sources (about 4,800 log lines) at Brotli q8 are 6 % smaller than 512 Ki
 * blocks at q6 (10.5 % of the raw bytes), for about 1.7 times the compression time, which runs on
 * the thread pool; q9 would save 1 % more for 2.4 times the time of q8. A block decodes in about
 * 1 ms (Brotli) and 2 ms (layout).
 */
import zlib from 'node:zlib';
import { FormatError } from './byte-reader.js';
import { ColumnDocBlock } from './doc-block-decoder.js';
import { DocBlockEncoder, type WrittenColumns } from './doc-block-encoder.js';
import { DocBlockV1 } from './doc-block-v1.js';
import type { DocBlock } from './doc-block.js';

export type { DocBlock, SourceColumns } from './doc-block.js';
export type { WrittenColumns } from './doc-block-encoder.js';

/** A block is closed once its sources reach this many UTF-16 code units. */
export const DOC_BLOCK_TARGET_CHARS = 1024 * 1024;
const BROTLI_QUALITY = 8;

/** Collects the sources of one block at a time and compresses it. */
export class DocStoreBlockWriter {
  private readonly encoder: DocBlockEncoder;

  /** `columns` are the columns the segment file holds: values equal to them are not stored again */
  constructor(columns: WrittenColumns) {
    this.encoder = new DocBlockEncoder(columns);
  }

  get count(): number {
    return this.encoder.count;
  }

  /** True once the pending block is big enough to close. */
  get full(): boolean {
    return this.encoder.chars >= DOC_BLOCK_TARGET_CHARS;
  }

  /** Adds the source of segment doc `doc` (docs in order). */
  add(text: string, doc: number): void {
    this.encoder.add(text, doc);
  }

  /**
   * The compressed bytes of the pending block; starts the next one at once. Compression runs on
   * the libuv thread pool, so the caller can encode the next block meanwhile.
   */
  finish(): Promise<Buffer> {
    const raw = this.encoder.finish();
    const params = {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    };
    return new Promise((resolve, reject) => zlib.brotliCompress(raw, { params }, (err, out) => (err ? reject(err) : resolve(out))));
  }
}

/** Decompresses and decodes a block of `count` docs written in format `version`. */
export function decodeDocBlock(compressed: Uint8Array, count: number, version: number): DocBlock {
  let bytes: Buffer;
  try {
    bytes = zlib.brotliDecompressSync(compressed);
  } catch {
    throw new FormatError('doc block does not decompress');
  }
  return version === 1 ? new DocBlockV1(bytes, count) : new ColumnDocBlock(bytes, count);
}
