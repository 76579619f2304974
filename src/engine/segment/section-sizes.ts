/**
 * Bytes per section of a segment file, read off its footer: what the size measurements report.
 * Posting blobs are not listed in the footer; a field's postings are the bytes between its
 * presence or numeric blob and its first term block (the order the writer lays them out in).
 */
import fs from 'node:fs';
import { CorruptionError } from '../../common/errors.js';
import { FormatError } from './byte-reader.js';
import { HEADER_BYTES, TRAILER_BYTES, decodeFooter, decodeTrailer, type BlobRef } from './footer.js';

export interface FieldSectionSizes {
  name: string;
  presence: number;
  numeric: number;
  ordinals: number;
  postings: number;
  termBlocks: number;
}

export interface SectionSizes {
  fileBytes: number;
  header: number;
  docStore: number;
  /** `_ts`, `_lid` and `_id` columns */
  ts: number;
  lid: number;
  ids: number;
  fields: FieldSectionSizes[];
  /** footer and trailer */
  footer: number;
}

function end(ref: BlobRef | null): number {
  return ref === null ? 0 : ref.offset + ref.length;
}

/** Reads the footer of a segment file and sizes each section (throws CorruptionError when damaged). */
export function sectionSizes(filePath: string): SectionSizes {
  const bytes = fs.readFileSync(filePath);
  const size = bytes.length;
  try {
    const trailer = decodeTrailer(bytes.subarray(size - TRAILER_BYTES));
    const footerStart = size - TRAILER_BYTES - trailer.footerLength;
    const footer = decodeFooter(bytes.subarray(footerStart, size - TRAILER_BYTES), size, trailer.version);
    const ds = footer.docStore;
    const docStoreBytes = ds.offsets[ds.crcs.length]! - ds.offsets[0]!;
    let cursor = Math.max(end(footer.ts), end(footer.lid), end(footer.ids));
    const fields: FieldSectionSizes[] = footer.fields.map((f) => {
      const before = Math.max(cursor, end(f.presence), end(f.numeric));
      const t = f.terms;
      const termsStart = t && t.offsets.length > 0 ? t.offsets[0]! : before;
      const termsEnd = t && t.offsets.length > 0 ? t.offsets[t.offsets.length - 1]! + t.lengths[t.lengths.length - 1]! : before;
      cursor = Math.max(termsEnd, end(f.ordinals), before);
      return {
        name: f.name,
        presence: f.presence?.length ?? 0,
        numeric: f.numeric?.length ?? 0,
        ordinals: f.ordinals?.length ?? 0,
        postings: termsStart - before,
        termBlocks: termsEnd - termsStart,
      };
    });
    return {
      fileBytes: size,
      header: HEADER_BYTES,
      docStore: docStoreBytes,
      ts: footer.ts.length,
      lid: footer.lid.length,
      ids: footer.ids.length,
      fields,
      footer: size - footerStart,
    };
  } catch (err) {
    if (err instanceof FormatError) throw new CorruptionError(filePath, err.message);
    throw err;
  }
}
