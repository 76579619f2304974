/**
 * The segment serializer: streams any SegmentReader into a segment file, section after section,
 * so that only one doc block, one term's blob and one field's term blocks are held at a time.
 * The file is written as `<path>.tmp`, fsynced, renamed into place and the directory fsynced.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FieldInfo, OrdinalColumn, PositionPostings, SegmentReader } from '../segment-reader.js';
import { ByteWriter } from './byte-writer.js';
import { checksum } from './checksum.js';
import { encodeIdColumn, encodeNumericColumn, encodeOrdinalColumn } from './column-codec.js';
import { COMPRESSION_LEVELS, type Compression, type CompressionLevels } from './compression.js';
import { DocStoreBlockWriter } from './doc-store.js';
import { FileSink } from './file-sink.js';
import { findOrdinalFunction } from './ordinal-function.js';
import {
  FLAG_DERIVED_POSTINGS,
  FLAG_NUMERIC,
  FORMAT_VERSION,
  FLAG_ORDINALS,
  FLAG_POSITIONS,
  FLAG_PRESENCE_ALL,
  FLAG_PRESENCE_NUMERIC,
  FLAG_PRESENCE_ORDINALS,
  FLAG_TERMS,
  encodeFooter,
  encodeHeader,
  type BlobRef,
  type DocStoreIndex,
  type FieldEntry,
} from './footer.js';
import { DOCS_REF, encodeDocIds, encodePositions, encodePostingDocs } from './postings-codec.js';
import { ReferenceChooser, encodeReference } from './reference-postings.js';
import { segmentIdOf } from './segment-id.js';
import { INLINE_MAX_DOCS, TermDictWriter } from './term-dict.js';
import { SLICE_MS, Yielder } from './yielder.js';

export interface SegmentFileInfo {
  /** the file name without its extension, the id `openSegment` gives the segment by default */
  id: string;
  numDocs: number;
  minTs: number;
  maxTs: number;
  maxLid: number;
  sizeBytes: number;
  fields: FieldInfo[];
}

/** Doc ids below `limit`: the prefix of a sorted list. */
function below(docs: Uint32Array, limit: number): Uint32Array {
  const n = docs.length;
  if (n === 0 || docs[n - 1]! < limit) return docs;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < limit) lo = mid + 1;
    else hi = mid;
  }
  return docs.subarray(0, lo);
}

/** Keyword fields with at most this many terms may read postings off their ordinal column. */
const DERIVED_MAX_TERMS = 1024;

/**
 * The ordinal column re-expressed over the written dictionary `dict` (both sorted), or null when
 * a doc's value is not in it. Terms of a still-growing source that only later docs hold drop out.
 */
function onDictionary(column: OrdinalColumn, dict: readonly string[], numDocs: number): OrdinalColumn | null {
  const from = column.terms;
  const map = new Int32Array(from.length).fill(-1);
  for (let i = 0, j = 0; i < from.length && j < dict.length; ) {
    if (from[i] === dict[j]) map[i++] = j++;
    else if (from[i]! < dict[j]!) i++;
    else j++;
  }
  const ords = new Int32Array(numDocs);
  for (let d = 0; d < numDocs; d++) {
    const o = column.ords[d]!;
    if (o < 0) {
      ords[d] = -1;
      continue;
    }
    const m = map[o]!;
    if (m < 0) return null;
    ords[d] = m;
  }
  return { ords, terms: dict };
}

/** True when `docs` (sorted) are exactly the docs below `numDocs` for which `has` holds. */
function sameDocs(docs: Uint32Array, has: (doc: number) => boolean, numDocs: number): boolean {
  let k = 0;
  for (let d = 0; d < numDocs; d++) {
    if (!has(d)) continue;
    if (docs[k] !== d) return false;
    k++;
  }
  return k === docs.length;
}

function allNaN(n: number): Float64Array {
  return new Float64Array(n).fill(NaN);
}

class SegmentSerializer {
  private readonly sink: FileSink;
  private readonly yielder: Yielder;
  private readonly blob = new ByteWriter(1 << 16);
  private readonly numericColumns = new Map<string, Float64Array | null>();
  private readonly ordinalColumns = new Map<string, OrdinalColumn | null>();
  /** names of the fields the file lists */
  private writtenFields: string[] = [];
  /** fields whose ordinals follow from another's, and the fields they follow from */
  private readonly functionFields = new Set<string>();
  private readonly ordinalSources = new Set<string>();

  constructor(
    fd: number,
    private readonly source: SegmentReader,
    /** docs [0, numDocs) are written: a snapshot of a source that may still grow */
    private readonly numDocs: number,
    sliceMs: number,
    private readonly levels: CompressionLevels,
  ) {
    this.sink = new FileSink(fd);
    this.yielder = new Yielder(sliceMs);
  }

  /** A turn for the event loop between steps that each take up to ~100 ms on a million docs. */
  private async breather(): Promise<void> {
    if (this.yielder.dueNow()) await this.yielder.pause();
  }

  private put(bytes: Uint8Array): BlobRef {
    const offset = this.sink.position;
    this.sink.write(bytes);
    return { offset, length: bytes.length, crc: checksum(bytes) };
  }

  async write(): Promise<{ sizeBytes: number; info: Omit<SegmentFileInfo, 'id' | 'sizeBytes'> }> {
    const n = this.numDocs;
    this.sink.write(encodeHeader());
    const ts = (this.source.numeric('_ts') ?? allNaN(n)).subarray(0, n);
    const lid = (this.source.numeric('_lid') ?? allNaN(n)).subarray(0, n);
    // a field first seen after the snapshot's last doc is not part of it
    const written = this.source.fields().filter((f) => below(this.source.exists(f.name), n).length > 0);
    this.writtenFields = written.map((f) => f.name);
    const docStore = await this.writeDocStore(ts, lid, new Set(written.map((f) => f.name)));

    let minTs = Infinity;
    let maxTs = -Infinity;
    let maxLid = 0;
    for (let i = 0; i < n; i++) {
      const t = ts[i]!;
      if (t < minTs) minTs = t;
      if (t > maxTs) maxTs = t;
      if (lid[i]! > maxLid) maxLid = lid[i]!;
    }
    const tsRef = this.put(encodeNumericColumn(ts, n));
    await this.breather();
    const lidRef = this.put(encodeNumericColumn(lid, n));
    await this.breather();
    const idsRef = this.put(encodeIdColumn(this.source.ids(), n));
    await this.breather();

    const fields: FieldEntry[] = [];
    const infos: FieldInfo[] = [];
    for (const f of written) {
      fields.push(await this.writeField(f));
      infos.push({ name: f.name, type: f.type });
      await this.breather();
    }

    this.sink.write(
      encodeFooter({ version: FORMAT_VERSION, numDocs: n, minTs, maxTs, maxLid, docStore, ts: tsRef, lid: lidRef, ids: idsRef, fields }),
    );
    this.sink.flush();
    return { sizeBytes: this.sink.position, info: { numDocs: n, minTs, maxTs, maxLid, fields: infos } };
  }

  /** The source's column of a field, asked once per write (doc store and field share it). */
  private numericOf(field: string): Float64Array | null {
    if (!this.numericColumns.has(field)) this.numericColumns.set(field, this.source.numeric(field));
    return this.numericColumns.get(field)!;
  }

  private ordinalsOf(field: string): OrdinalColumn | null {
    if (!this.ordinalColumns.has(field)) this.ordinalColumns.set(field, this.source.ordinals(field));
    return this.ordinalColumns.get(field)!;
  }

  private async writeDocStore(ts: Float64Array, lid: Float64Array, fields: ReadonlySet<string>): Promise<DocStoreIndex> {
    const n = this.numDocs;
    const firstDocs: number[] = [0];
    const offsets: number[] = [this.sink.position];
    const crcs: number[] = [];
    // the columns this file will hold: what the reader can take left-out values from
    const blocks = new DocStoreBlockWriter(this.source, this.levels.docStore, {
      numeric: (field) => (field === '_ts' ? ts : field === '_lid' ? lid : fields.has(field) ? this.numericOf(field) : null),
      keyword: (field) => (fields.has(field) ? this.ordinalsOf(field) : null),
    });
    // one block compresses on the thread pool while the next one is encoded here; blocks are
    // written in order
    let compressing: Promise<Buffer> | null = null;
    let compressingEnd = 0;
    const writeCompressed = async (): Promise<void> => {
      if (compressing === null) return;
      const block = await compressing;
      compressing = null;
      crcs.push(checksum(block));
      this.sink.write(block);
      firstDocs.push(compressingEnd);
      offsets.push(this.sink.position);
    };
    const flush = async (endDoc: number): Promise<void> => {
      const next = blocks.finish();
      // a failure surfaces when the block is awaited; until then it is not unhandled
      next.catch(() => undefined);
      await writeCompressed();
      compressing = next;
      compressingEnd = endDoc;
      if (this.yielder.dueNow()) await this.yielder.pause();
    };
    try {
      for (let d = 0; d < n; d++) {
        blocks.add(d, ts[d]!, lid[d]!);
        if (blocks.full) await flush(d + 1);
        else if (this.yielder.due()) await this.yielder.pause();
      }
      if (blocks.count > 0) await flush(n);
      await writeCompressed();
    } finally {
      // on a failure, do not leave a compression behind unawaited
      await (compressing as Promise<Buffer> | null)?.catch(() => undefined);
    }
    return { firstDocs: Uint32Array.from(firstDocs), offsets: Float64Array.from(offsets), crcs: Uint32Array.from(crcs) };
  }

  private async writeField(f: FieldInfo): Promise<FieldEntry> {
    const n = this.numDocs;
    const src = this.source;
    const entry: FieldEntry = {
      name: f.name,
      type: f.type,
      flags: 0,
      presenceCount: 0,
      presence: null,
      numeric: null,
      ordinals: null,
      terms: null,
    };

    const present = below(src.exists(f.name), n);
    const numeric = this.numericOf(f.name);
    const ordinals = this.ordinalsOf(f.name);
    entry.presenceCount = present.length;
    if (present.length === n) {
      entry.flags |= FLAG_PRESENCE_ALL;
    } else if (numeric !== null && sameDocs(present, (d) => numeric[d] === numeric[d], n)) {
      entry.flags |= FLAG_PRESENCE_NUMERIC;
    } else if (ordinals !== null && sameDocs(present, (d) => ordinals.ords[d]! >= 0, n)) {
      entry.flags |= FLAG_PRESENCE_ORDINALS;
    } else {
      this.blob.clear();
      encodeDocIds(this.blob, present);
      entry.presence = this.put(this.blob.view8());
    }
    await this.breather();

    if (numeric !== null) {
      entry.flags |= FLAG_NUMERIC;
      entry.numeric = this.put(encodeNumericColumn(numeric, n));
      await this.breather();
    }

    const withPositions = f.type === 'text';
    const derived = ordinals !== null && this.canDerivePostings(f.name, ordinals, present.length);
    await this.breather();
    const dict = new TermDictWriter(withPositions, derived, this.levels.termBlockQuality);
    const references = new ReferenceChooser(n);
    const referenceBlob = new ByteWriter(1 << 12);
    // the ordinal column's terms are usually the term dictionary: then they are not repeated
    const written: string[] | null = ordinals === null ? null : [];
    for (const term of src.terms(f.name)) {
      let docs: Uint32Array;
      let positions: PositionPostings | null = null;
      if (withPositions) {
        positions = src.positions(f.name, term);
        // a merge leaves out deleted docs: a term only they held has no positions left
        if (positions === null) continue;
        docs = positions.docs;
      } else {
        docs = src.postings(f.name, term) ?? new Uint32Array(0);
      }
      docs = below(docs, n);
      if (docs.length === 0) continue;
      written?.push(term);
      if (derived) {
        dict.addDerived(term, docs.length);
      } else if (docs.length <= INLINE_MAX_DOCS) {
        dict.addInline(term, docs, positions);
      } else {
        const blob = this.blob;
        blob.clear();
        const rank = dict.count;
        let docsMode = encodePostingDocs(blob, docs);
        const reference = references.choose(docs, blob.length);
        if (reference !== null) {
          referenceBlob.clear();
          encodeReference(referenceBlob, reference, encodePostingDocs);
          if (ReferenceChooser.worthIt(referenceBlob.length, blob.length)) {
            blob.clear();
            blob.bytes(referenceBlob.view8());
            docsMode = DOCS_REF;
          }
        }
        if (docsMode !== DOCS_REF) references.offer(rank, docs);
        const docsLen = blob.length;
        const mode = positions === null ? 0 : encodePositions(blob, positions, docs.length, this.levels.positionsLevel);
        const offset = this.sink.position;
        this.sink.write(blob.view8());
        dict.add(term, docs.length, offset, docsLen, docsMode, blob.length - docsLen, mode);
      }
      if (this.yielder.due()) await this.yielder.pause();
    }
    await this.breather();
    const index = dict.finish(this.sink.position);
    if (index.numTerms > 0) {
      this.sink.write(dict.blocks.view8());
      entry.terms = index;
      entry.flags |= FLAG_TERMS;
      if (withPositions) entry.flags |= FLAG_POSITIONS;
      if (derived) entry.flags |= FLAG_DERIVED_POSTINGS;
    }

    if (ordinals !== null) {
      entry.flags |= FLAG_ORDINALS;
      const remapped = onDictionary(ordinals, written!, n);
      if (derived && remapped === null) throw new Error(`ordinals of ${f.name} changed while writing`);
      entry.ordinals = this.put(this.encodeOrdinals(f.name, remapped ?? ordinals, remapped !== null));
    }
    return entry;
  }

  /**
   * The ordinal column blob of a field: as pairs of another keyword field's term and an ordinal
   * where that field's value fixes this one's (a host runs one service) and that is smaller.
   * A field that gives another's ordinals is not given by any (the reader resolves one level).
   */
  private encodeOrdinals(field: string, column: OrdinalColumn, sharedTerms: boolean): Uint8Array {
    const n = this.numDocs;
    let best = encodeOrdinalColumn(column, n, sharedTerms);
    if (this.ordinalSources.has(field)) return best;
    let bestSource: string | null = null;
    for (const g of this.writtenFields) {
      if (g === field || this.functionFields.has(g)) continue;
      const source = this.ordinalsOf(g);
      // a source with about a term per doc would take more pairs than the column has values
      if (source === null || source.terms.length > n / 4) continue;
      const fn = findOrdinalFunction(column.ords, g, source, n);
      if (fn === null) continue;
      const bytes = encodeOrdinalColumn(column, n, sharedTerms, fn);
      if (bytes.length < best.length) {
        best = bytes;
        bestSource = g;
      }
    }
    if (bestSource !== null) {
      this.functionFields.add(field);
      this.ordinalSources.add(bestSource);
    }
    return best;
  }

  /**
   * True when the ordinal column alone gives the field's postings: each doc holding the field
   * holds exactly one term (so its first value), and the ordinal terms are the dictionary. Kept
   * to fields with few terms: the reader buckets the whole column on the first lookup, so the
   * saving is worth it only where terms are shared by many docs.
   */
  private canDerivePostings(field: string, ordinals: OrdinalColumn, presenceCount: number): boolean {
    const n = this.numDocs;
    if (presenceCount === 0 || ordinals.terms.length > DERIVED_MAX_TERMS) return false;
    let pairs = 0;
    let k = 0;
    for (const term of this.source.terms(field)) {
      const docs = below(this.source.postings(field, term) ?? new Uint32Array(0), n);
      if (docs.length === 0 || ordinals.terms[k++] !== term) return false;
      pairs += docs.length;
    }
    if (k !== ordinals.terms.length || pairs !== presenceCount) return false;
    let withOrd = 0;
    for (let d = 0; d < n; d++) if (ordinals.ords[d]! >= 0) withOrd++;
    return withOrd === presenceCount;
  }
}

function fsyncAsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.fsync(fd, (err) => (err ? reject(err) : resolve())));
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes the docs the source holds now (a later-growing source is cut at its current numDocs) to
 * `filePath` atomically: readers see either no file or the whole file.
 */
export interface WriteOptions {
  /** longest stretch of work (ms) between turns given to the event loop; default 8 */
  sliceMs?: number;
  /** `compact` (the default) or `quick` (flushes): see compression.ts */
  compression?: Compression;
}

export async function writeSegment(source: SegmentReader, filePath: string, options: WriteOptions = {}): Promise<SegmentFileInfo> {
  const tmp = `${filePath}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  let closed = false;
  try {
    const { sizeBytes, info } = await new SegmentSerializer(fd, source, source.numDocs, options.sliceMs ?? SLICE_MS, COMPRESSION_LEVELS[options.compression ?? 'compact']).write();
    await fsyncAsync(fd);
    fs.closeSync(fd);
    closed = true;
    await fs.promises.rename(tmp, filePath);
    await fsyncDir(path.dirname(filePath));
    return { id: segmentIdOf(filePath), sizeBytes, ...info };
  } catch (err) {
    if (!closed) fs.closeSync(fd);
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
}
