/**
 * The doc store: blocks of the stored sources of consecutive docs, each compressed on its own
 * with Brotli so that a source read decompresses one block. Two block layouts, marked per block
 * by a byte before the compressed bytes (format 4; before it the file's version decides):
 *
 * - column blocks (doc-block-encoder.ts: shapes, per-key value streams, the free text as one
 *   stream) at Brotli q8: the compact layout, written by merges (compaction);
 * - text blocks (doc-block-text.ts: the texts whole) at Brotli q1: about twice the bytes, for a
 *   sixth of the CPU, written by flushes, so that taking writes in stays cheap and the bytes
 *   shrink when the storage role merges the segment. Format-1 files hold only these.
 *
 * Block size and codec, measured on the benchmark corpus (docs/segment-format.md): column blocks
 * of 1 Mi code units at Brotli q8 are 6 % smaller than 512 Ki blocks at q6 (10.5 % of the raw
 * bytes), for about 1.7 times the compression time, which runs on the thread pool; q9 would save
 * 1 % more for 2.4 times the time of q8. A block decodes in about 1 ms (Brotli) and 2 ms
 * (layout). Text blocks of 1 MiB at q1 are about 22 % of the raw bytes and cost about 0.7 µs per
 * log line to compress, against about 4 µs for a column block.
 */
import zlib from 'node:zlib';
import type { SegmentReader } from '../segment-reader.js';
import { FormatError } from './byte-reader.js';
import { ColumnDocBlock } from './doc-block-decoder.js';
import { DocBlockEncoder, type WrittenColumns } from './doc-block-encoder.js';
import { TextDocBlock, TextDocBlockEncoder } from './doc-block-text.js';
import type { DocBlock } from './doc-block.js';

export type { DocBlock, SourceColumns } from './doc-block.js';
export type { WrittenColumns } from './doc-block-encoder.js';

/** A column block is closed once its sources reach this many UTF-16 code units. */
export const DOC_BLOCK_TARGET_CHARS = 1024 * 1024;
/** A text block is closed once its sources reach this many bytes. */
const TEXT_BLOCK_TARGET_BYTES = 1024 * 1024;
const COLUMNS_BROTLI_QUALITY = 8;
const TEXT_BROTLI_QUALITY = 1;

/** The byte before a block's compressed bytes (format 4 on). */
const LAYOUT_TEXT = 1;
const LAYOUT_COLUMNS = 2;
/** The first format whose blocks carry their layout byte. */
const LAYOUT_BYTE_VERSION = 4;

/** `columns`: compact, for merges; `text`: quick, for flushes (readers that hold UTF-8 sources). */
export type DocStoreLayout = 'columns' | 'text';

/** Collects the sources of one block at a time and compresses it. */
export class DocStoreBlockWriter {
  private readonly columns: DocBlockEncoder | null;
  private readonly texts: TextDocBlockEncoder | null;

  /**
   * `layout` is what the caller asks for: text blocks need a source with `sourceBytes`, and
   * column blocks are written otherwise. `written` are the columns the segment file holds:
   * values equal to them are not stored again.
   */
  constructor(
    private readonly source: SegmentReader,
    layout: DocStoreLayout,
    written: WrittenColumns,
  ) {
    const text = layout === 'text' && source.sourceBytes !== undefined;
    this.texts = text ? new TextDocBlockEncoder() : null;
    this.columns = text ? null : new DocBlockEncoder(written);
  }

  get count(): number {
    return this.texts !== null ? this.texts.count : this.columns!.count;
  }

  /** True once the pending block is big enough to close. */
  get full(): boolean {
    return this.texts !== null ? this.texts.bytes >= TEXT_BLOCK_TARGET_BYTES : this.columns!.chars >= DOC_BLOCK_TARGET_CHARS;
  }

  /** Adds the source of doc `doc` of the source (docs in order), which has `ts` and `lid`. */
  add(doc: number, ts: number, lid: number): void {
    if (this.texts !== null) {
      const bytes = this.source.sourceBytes!(doc);
      this.texts.add(bytes, 0, bytes.length, ts, lid);
    } else {
      this.columns!.add(this.source.source(doc), doc);
    }
  }

  /**
   * The stored bytes of the pending block (its layout byte, then the compressed block); starts
   * the next one at once. Compression runs on the libuv thread pool, so the caller can encode the
   * next block meanwhile.
   */
  finish(): Promise<Buffer> {
    const text = this.texts !== null;
    const raw = text ? this.texts!.finish() : this.columns!.finish();
    const params = {
      [zlib.constants.BROTLI_PARAM_QUALITY]: text ? TEXT_BROTLI_QUALITY : COLUMNS_BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    };
    return new Promise((resolve, reject) =>
      zlib.brotliCompress(raw, { params }, (err, out) => (err ? reject(err) : resolve(Buffer.concat([LAYOUT_PREFIX[text ? 0 : 1]!, out])))),
    );
  }
}

const LAYOUT_PREFIX = [Buffer.of(LAYOUT_TEXT), Buffer.of(LAYOUT_COLUMNS)];

/** Decompresses and decodes a block of `count` docs stored in a file of format `version`. */
export function decodeDocBlock(stored: Uint8Array, count: number, version: number): DocBlock {
  let layout = version === 1 ? LAYOUT_TEXT : LAYOUT_COLUMNS;
  let compressed = stored;
  if (version >= LAYOUT_BYTE_VERSION) {
    if (stored.length < 1) throw new FormatError('empty doc block');
    layout = stored[0]!;
    if (layout !== LAYOUT_TEXT && layout !== LAYOUT_COLUMNS) throw new FormatError(`unknown doc block layout ${layout}`);
    compressed = stored.subarray(1);
  }
  let bytes: Buffer;
  try {
    bytes = zlib.brotliDecompressSync(compressed);
  } catch {
    throw new FormatError('doc block does not decompress');
  }
  return layout === LAYOUT_TEXT ? new TextDocBlock(bytes, count) : new ColumnDocBlock(bytes, count);
}
