/**
 * Immutable segment files: the serializer (writeSegment, from any SegmentReader), the reader
 * (openSegment: footer in memory, positioned reads for the rest) and the merged view compaction
 * writes out. docs/segment-format.md describes every byte; in short (little-endian, varints are
 * unsigned LEB128, offsets absolute, "blob ref" = varint offset · varint length · u32 CRC-32):
 *
 *   header    "SVSG" · u32 format version (4; versions 1 to 3 are still read)
 *   doc store blocks, each a layout byte and Brotli bytes (doc-store.ts): text blocks of ~1 MiB
 *             of sources whole at q1 (flushes: doc-block-text.ts), or column blocks of ~1 Mi code
 *             units at q8 (merges): per block the docs' shapes (the source with each value replaced by a slot marker),
 *             then per key a value stream; values the segment's columns hold (`_ts`, `_lid`,
 *             keyword terms, numbers) are not stored again; free text keeps its numbers and hex
 *             ids apart (doc-block-layout.ts); sources that are not flat objects are kept whole
 *   columns   `_ts`, `_lid` numeric column blobs, `_id` column blob (column-codec.ts; values
 *             bit packed or, where smaller, as Brotli-coded byte planes: plane-stream.ts)
 *   per field presence blob (docs stream, when no flag implies it) · numeric column blob ·
 *             posting blobs in term order (postings-codec.ts: doc ids packed, or as positions
 *             within an earlier term's docs (reference-postings.ts)) · term
 *             blocks of 128 front-coded terms, Brotli, terms of up to 8 docs inline (docs packed)
 *             (term-dict.ts) · ordinal column blob (or pairs of another keyword field's term
 *             and an ordinal, where that field fixes this one: ordinal-function.ts)
 *   footer    varint numDocs · f64 minTs · f64 maxTs · f64 maxLid · doc store: varint numBlocks ·
 *             varint first block offset · per block (varint docs · varint length · u32 CRC-32) ·
 *             blob refs of `_ts`, `_lid`, `_id` · varint numFields · per field: u8 name encoding ·
 *             varint length · name · u8 type (0 text 1 keyword 2 long 3 double 4 boolean 5 date) ·
 *             u8 flags (1 terms, 2 positions, 4 numeric, 8 ordinals, 16 every doc has it,
 *             32 postings derived from ordinals, 64 presence = docs with a numeric value,
 *             128 presence = docs with an ordinal) · varint presenceCount · [presence ref] ·
 *             [numeric ref] · [ordinals ref] · [terms: varint numTerms · varint numBlocks ·
 *             varint first block offset · per block: u8 encoding · varint length · first term ·
 *             varint block length · u32 CRC-32]
 *   trailer   u32 footer length · u32 CRC-32 of the footer · u32 format version · "SVSG"
 *
 * Integer streams are the packed u32 streams of bitpack.ts. Every blob but the posting blobs has
 * a CRC-32 checked when read; posting blobs are range-checked. Failures are CorruptionErrors.
 *
 * A reader keeps what it decodes in its thread's reader cache (reader-cache.ts), dense posting
 * lists with a bitset of their docs (doc-bits.ts: the skip data of intersections, built in
 * memory, not stored).
 */
export { writeSegment, type SegmentFileInfo, type WriteOptions } from './segment-writer.js';
export type { Compression } from './compression.js';
export { segmentIdOf } from './segment-id.js';
export { mergeSegments } from './merged-segment.js';
export { FORMAT_VERSION } from './footer.js';
import type { SegmentReader } from '../segment-reader.js';
import { SegmentFile } from './segment-file.js';

/** An open segment file; `close()` releases its file descriptor. */
export type SegmentFileReader = SegmentReader & { close(): void; readonly sizeBytes: number };

/**
 * Opens a segment file, checking its trailer, format version and footer checksum (throws
 * CorruptionError naming the file). The id defaults to the file name without its extension.
 * Arrays returned by the reader may be shared with its caches: callers must not modify them.
 */
export function openSegment(filePath: string, id?: string): SegmentFileReader {
  return SegmentFile.open(filePath, id);
}
export { sectionSizes, type SectionSizes, type FieldSectionSizes } from './section-sizes.js';
export { withoutDocs } from './live-docs-segment.js';
export { docBits } from './doc-bits.js';
export { ReaderCacheBudget, useReaderCacheBudget, currentReaderCache, MAX_READER_CACHE_BYTES, type ReaderCache } from './reader-cache.js';
