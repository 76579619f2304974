/**
 * The documents of one write for one index, in request order: scanned ones (values in a
 * ScannedValueList, source as a byte range of the request) and general ones (IndexedDocuments).
 * A replay of the write-ahead log fills one from a record's bytes the same way.
 * It renders the batch's write-ahead log record straight from the request bytes, and after the
 * record is durable adds every document to a memtable, taking the sources from the record.
 */
import type { IndexedDocument } from '../document/index.js';
import type { Memtable } from '../memtable/index.js';
import type { FieldSlot } from '../memtable/index.js';
import { decimalLength, writeDecimal } from '../../common/index.js';
import { ScannedValueList } from './scanned-value-list.js';
import { WAL_DOC_HEADER_BYTES, walBatchHeaderBytes, writeWalBatchHeader, writeWalDocHeader } from './wal-record.js';

/** What follows a scanned doc's kept bytes in its stored source: nothing (replayed: kept whole), */
const SUFFIX_NONE = 0;
/** `,"_lid":<lid>}` (the text has its own `_ts`), */
const SUFFIX_LID = 1;
/** or `,"_ts":<ts>,"_lid":<lid>}`; a client-supplied `_id`'s members go before the brace */
const SUFFIX_TS_LID = 2;
const TS_MEMBER = Buffer.from(',"_ts":', 'latin1');
const LID_MEMBER = Buffer.from(',"_lid":', 'latin1');
const CLOSE_BRACE = 0x7d;

/**
 * The documents of a write as an indexing thread takes them: scanned documents' values point
 * into `record` (where their sources are), documents of the general path come whole.
 */
export interface IndexingJobBody {
  slots: readonly FieldSlot[];
  record: Uint8Array;
  ids: BigUint64Array;
  ts: Float64Array;
  lids: Float64Array;
  /** doc k's source is record bytes [sourceAt[k], sourceAt[k] + sourceLength[k]) */
  sourceAt: Uint32Array;
  sourceLength: Uint32Array;
  /** doc k's values are [valueEnd[k - 1], valueEnd[k]) of the value arrays */
  valueEnd: Uint32Array;
  slot: Int32Array;
  start: Uint32Array;
  end: Uint32Array;
  num: Float64Array;
  /** documents that took the general path, by position */
  general: Array<[number, IndexedDocument]>;
}

export class ShardWriteBatch {
  readonly values: ScannedValueList;
  private count = 0;
  private readonly ids: BigUint64Array;
  private readonly ts: Float64Array;
  private readonly lids: Float64Array;
  /**
   * scanned docs: the kept source bytes [keepStart, keepEnd) and what follows them (SUFFIX_*),
   * with the identity members of a client-supplied `_id` (sparse: most docs have none)
   */
  private readonly keepStart: Uint32Array;
  private readonly keepEnd: Uint32Array;
  private readonly suffixKind: Uint8Array;
  private readonly identities: Array<string | undefined>;
  /** values of doc k end at valueEnd[k] (they start where doc k - 1's end) */
  private readonly valueEnd: Uint32Array;
  /** general docs by position; undefined for scanned ones */
  private readonly general: Array<IndexedDocument | undefined>;
  /** where each doc's source lies in the record, once rendered */
  private sourceAt: Uint32Array | null = null;
  private sourceLength: Uint32Array | null = null;
  private record: Buffer | null = null;

  constructor(
    private readonly bytes: Buffer,
    slots: readonly FieldSlot[],
    capacity: number,
  ) {
    this.values = new ScannedValueList(bytes, slots, capacity * 8);
    this.ids = new BigUint64Array(capacity);
    this.ts = new Float64Array(capacity);
    this.lids = new Float64Array(capacity);
    this.keepStart = new Uint32Array(capacity);
    this.keepEnd = new Uint32Array(capacity);
    this.suffixKind = new Uint8Array(capacity);
    this.identities = new Array(capacity);
    this.valueEnd = new Uint32Array(capacity);
    this.general = new Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /**
   * A scanned document (its values already appended to `values`). Its stored source is the text
   * as sent up to `keepEnd` with `_ts` (when the text has none) and `_lid` appended, exactly as
   * the general path renders a document whose text it can keep; `identity` (a client-supplied
   * `_id` and its version, document/identity.ts) goes last.
   */
  addScanned(id: bigint, ts: number, lid: number, textHasTs: boolean, keepStart: number, keepEnd: number, identity = ''): void {
    const k = this.addKept(id, ts, lid, keepStart, keepEnd, textHasTs ? SUFFIX_LID : SUFFIX_TS_LID);
    if (identity !== '') this.identities[k] = identity;
  }

  /**
   * A document replayed from the write-ahead log whose stored source (bytes [start, end), `_lid`
   * included) the scanner took: the source is kept as it is.
   */
  addStored(id: bigint, ts: number, lid: number, start: number, end: number): void {
    this.addKept(id, ts, lid, start, end, SUFFIX_NONE);
  }

  private addKept(id: bigint, ts: number, lid: number, keepStart: number, keepEnd: number, suffix: number): number {
    const k = this.count++;
    this.ids[k] = id;
    this.ts[k] = ts;
    this.lids[k] = lid;
    this.keepStart[k] = keepStart;
    this.keepEnd[k] = keepEnd;
    this.suffixKind[k] = suffix;
    this.valueEnd[k] = this.values.length;
    return k;
  }

  /** The members after doc k's kept bytes, as text (the rare paths). */
  private suffixText(k: number): string {
    const kind = this.suffixKind[k]!;
    if (kind === SUFFIX_NONE) return '';
    const ts = kind === SUFFIX_TS_LID ? `,"_ts":${this.ts[k]!}` : '';
    return `${ts},"_lid":${this.lids[k]!}${this.identities[k] ?? ''}}`;
  }

  /** UTF-8 bytes of doc k's suffix. */
  private suffixLength(k: number): number {
    const kind = this.suffixKind[k]!;
    if (kind === SUFFIX_NONE) return 0;
    const identity = this.identities[k];
    if (identity !== undefined) return Buffer.byteLength(this.suffixText(k), 'utf8');
    const ts = kind === SUFFIX_TS_LID ? TS_MEMBER.length + decimalLength(this.ts[k]!) : 0;
    return ts + LID_MEMBER.length + decimalLength(this.lids[k]!) + 1;
  }

  /** Writes doc k's suffix at `o`; returns where it ends. */
  private writeSuffix(buf: Buffer, o: number, k: number): number {
    const kind = this.suffixKind[k]!;
    if (kind === SUFFIX_NONE) return o;
    if (this.identities[k] !== undefined) return o + buf.write(this.suffixText(k), o, 'utf8');
    if (kind === SUFFIX_TS_LID) {
      o += TS_MEMBER.copy(buf, o);
      o = writeDecimal(buf, o, this.ts[k]!);
    }
    o += LID_MEMBER.copy(buf, o);
    o = writeDecimal(buf, o, this.lids[k]!);
    buf[o++] = CLOSE_BRACE;
    return o;
  }

  addGeneral(doc: IndexedDocument): void {
    const k = this.count++;
    this.ids[k] = doc.id;
    this.ts[k] = doc.ts;
    this.lids[k] = doc.lid;
    this.general[k] = doc;
    this.valueEnd[k] = this.values.length;
  }

  /** The stored source of document k (before the record is rendered too). */
  sourceOf(k: number): string {
    const doc = this.general[k];
    if (doc !== undefined) return doc.source;
    return this.bytes.toString('utf8', this.keepStart[k]!, this.keepEnd[k]!) + this.suffixText(k);
  }

  /** The write-ahead log record of the batch (rendered once). */
  walRecord(index: string, indexUuid: string): Buffer {
    if (this.record !== null) return this.record;
    const name = Buffer.from(index, 'utf8');
    const uuid = Buffer.from(indexUuid, 'utf8');
    const n = this.count;
    const lengths = new Uint32Array(n);
    let size = walBatchHeaderBytes(name, uuid);
    for (let k = 0; k < n; k++) {
      const doc = this.general[k];
      lengths[k] = doc !== undefined ? Buffer.byteLength(doc.source, 'utf8') : this.keepEnd[k]! - this.keepStart[k]! + this.suffixLength(k);
      size += WAL_DOC_HEADER_BYTES + lengths[k]!;
    }
    const buf = Buffer.allocUnsafe(size);
    const at = new Uint32Array(n);
    let o = writeWalBatchHeader(buf, name, uuid, n);
    for (let k = 0; k < n; k++) {
      o = writeWalDocHeader(buf, o, this.ids[k]!, this.ts[k]!, this.lids[k]!, lengths[k]!);
      at[k] = o;
      const doc = this.general[k];
      if (doc !== undefined) {
        o += buf.write(doc.source, o, 'utf8');
      } else {
        o += this.bytes.copy(buf, o, this.keepStart[k]!, this.keepEnd[k]!);
        o = this.writeSuffix(buf, o, k);
      }
    }
    this.sourceAt = at;
    this.sourceLength = lengths;
    this.record = buf;
    return buf;
  }

  /** Source bytes of documents [first, end) (the write budget counts them). */
  sourceBytesOf(first = 0, end = this.count): number {
    let total = 0;
    for (let k = first; k < end; k++) total += this.sourceLength![k]!;
    return total;
  }

  /**
   * Documents from `first` on, after `walRecord`, as a job for an indexing thread: the record (moved
   * to the thread when the batch owns its memory alone, else copied) and the values, their byte
   * ranges moved from the request body to where each document's source lies in the record.
   */
  indexingJob(first = 0): { job: IndexingJobBody; transfer: ArrayBuffer[] } {
    const end = this.count;
    const record = this.record!;
    const ownsRecord = first === 0 && record.byteOffset === 0 && record.byteLength === record.buffer.byteLength && record.buffer instanceof ArrayBuffer;
    const recordBytes: Uint8Array<ArrayBuffer> = ownsRecord ? new Uint8Array(record.buffer as ArrayBuffer) : Uint8Array.prototype.slice.call(record);
    if (ownsRecord) this.record = null;
    const at = this.sourceAt!;
    const values = this.values;
    const base = first > 0 ? this.valueEnd[first - 1]! : 0;
    const total = (end > 0 ? this.valueEnd[end - 1]! : 0) - base;
    const start = new Uint32Array(total);
    const stop = new Uint32Array(total);
    const valueEnd = new Uint32Array(end - first);
    const general: Array<[number, IndexedDocument]> = [];
    let from = base;
    for (let k = first; k < end; k++) {
      const to = this.valueEnd[k]!;
      valueEnd[k - first] = to - base;
      const doc = this.general[k];
      if (doc !== undefined) general.push([k - first, doc]);
      else {
        const shift = at[k]! - this.keepStart[k]!;
        for (let v = from; v < to; v++) {
          start[v - base] = values.start[v]! + shift;
          stop[v - base] = values.end[v]! + shift;
        }
      }
      from = to;
    }
    const job: IndexingJobBody = {
      slots: values.slots,
      record: recordBytes,
      ids: this.ids.slice(first, end),
      ts: this.ts.slice(first, end),
      lids: this.lids.slice(first, end),
      sourceAt: at.slice(first, end),
      sourceLength: this.sourceLength!.slice(first, end),
      valueEnd,
      slot: values.slot.slice(base, base + total),
      start,
      end: stop,
      num: values.num.slice(base, base + total),
      general,
    };
    const transfer: ArrayBuffer[] = [start.buffer, stop.buffer, valueEnd.buffer, recordBytes.buffer];
    for (const a of [job.ids, job.ts, job.lids, job.sourceAt, job.sourceLength, job.slot, job.num]) transfer.push(a.buffer as ArrayBuffer);
    return { job, transfer };
  }

  /**
   * Adds documents [first, end) to the memtable, in order, after `walRecord`; calls `indexed`
   * with each document's field and `_line` token counts.
   */
  addTo(memtable: Memtable, indexed?: (fields: number, tokens: number) => void, first = 0, end = this.count): void {
    const record = this.record!;
    const at = this.sourceAt!;
    const lengths = this.sourceLength!;
    let from = first > 0 ? this.valueEnd[first - 1]! : 0;
    for (let k = first; k < end; k++) {
      const to = this.valueEnd[k]!;
      const doc = this.general[k];
      if (doc !== undefined) {
        memtable.add(doc);
        indexed?.(doc.fields.length, memtable.lastTokenCount);
      } else {
        memtable.addScanned(this.ids[k]!, this.ts[k]!, this.lids[k]!, record, at[k]!, at[k]! + lengths[k]!, this.values, from, to);
        indexed?.(to - from, memtable.lastTokenCount);
      }
      from = to;
    }
  }
}
