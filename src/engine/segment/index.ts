/**
 * Immutable segment files: the serializer (writeSegment, from any SegmentReader), the reader
 * (openSegment, positioned reads off the file) and the merged view that compaction writes out.
 * One file per segment, little-endian, varints are unsigned LEB128, offsets absolute:
 *
 *   header    "SVSG" · u32 format version (1)
 *   doc store blocks of ~64 KiB of source texts, Brotli q5: u8 encoding · varint len per doc · texts
 *   columns   `_ts`, `_lid` (numeric column blobs), `_id` (id column blob)
 *   per field, in field order: presence blob (docs stream; absent when no doc or every doc has the
 *             field) · numeric column blob · posting blobs of every term in term order (docs
 *             stream, then for text fields the positions) · term blocks (128 front-coded terms
 *             each) · ordinal column blob
 *   footer    varint numDocs · f64 minTs · f64 maxTs · f64 maxLid ·
 *             doc store: varint numBlocks · varint first block offset · per block varint docs ·
 *             varint byte length · u32 CRC-32 ·
 *             `_ts`, `_lid`, `_id` blob refs (varint offset · varint length · u32 CRC-32) ·
 *             varint numFields · per field: u8 name encoding · varint length · name · u8 type
 *             (0 text, 1 keyword, 2 long, 3 double, 4 boolean, 5 date) · u8 flags (1 terms,
 *             2 positions, 4 numeric, 8 ordinals, 16 every doc has it) · varint presence count ·
 *             [presence ref] · [numeric ref] · [ordinals ref] · [terms: varint numTerms · varint
 *             numBlocks · varint first block offset · per block: u8 encoding · varint length ·
 *             first term · varint block length · u32 CRC-32]
 *   trailer   u32 footer length · u32 CRC-32 of the footer · u32 format version · "SVSG"
 *
 * Blob layouts: packed u32 streams in bitpack.ts, posting blobs in postings-codec.ts, columns in
 * column-codec.ts, term blocks in term-dict.ts; docs/segment-format.md gathers them. Every blob
 * but the posting blobs carries a CRC-32 checked on read; posting blobs are range-checked.
 */
export { writeSegment, segmentIdOf, type SegmentFileInfo, type WriteOptions } from './segment-writer.js';
export { mergeSegments } from './merged-segment.js';
export { FORMAT_VERSION } from './footer.js';
import type { SegmentReader } from '../segment-reader.js';
import { SegmentFile } from './segment-file.js';

/** An open segment file; `close()` releases its file descriptor. */
export type SegmentFileReader = SegmentReader & { close(): void; readonly sizeBytes: number };

/**
 * Opens a segment file, checking its trailer, format version and footer checksum (throws
 * CorruptionError naming the file). The id defaults to the file name without its extension.
 */
export function openSegment(filePath: string, id?: string): SegmentFileReader {
  return SegmentFile.open(filePath, id);
}
