/**
 * The `_bulk` answer written straight into a Buffer. A shipper's request of thousands of
 * documents gets one item per document, about 200 bytes each: as many bytes as the documents
 * themselves. Item after item differs only in its id and numbers, so the bytes around them are
 * encoded once per index, action and result, and the numbers are written as digits in place:
 * no string per item, nothing for the garbage collector to promote while the request runs.
 */
import { writeDecimal } from '../../common/index.js';
import type { WriteOutcome, WriteResult } from '../../engine/index.js';
import type { BulkAction } from './parse-bulk.js';
import { writeStatus, writtenHead, WRITTEN_TERM, writtenResultPart, WRITTEN_VERSION } from './written-fields.js';

const COMMA = 0x2c;
const QUOTE = 0x22;

/** True when JSON writes the string as it is: printable ASCII without quote or backslash. */
function plainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === QUOTE || c === 0x5c) return false;
  }
  return true;
}
const VERSION = Buffer.from(WRITTEN_VERSION, 'latin1');

export class BulkResponseWriter {
  private buf: Buffer;
  private at = 0;
  private items = 0;
  /** `{"<action>":{"_index":<index>,"_type":"_doc","_id":` of the last item written */
  private headAction = '';
  private headIndex = '';
  private head = Buffer.alloc(0);
  /** the pieces around `_seq_no` of the last item's result */
  private result: WriteResult | '' = '';
  private middle = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  constructor(expectedItems: number) {
    this.buf = Buffer.allocUnsafe(Math.max(1024, expectedItems * 220));
  }

  /** Appends the item of a successful write. */
  written(action: BulkAction, outcome: Extract<WriteOutcome, { ok: true }>): void {
    if (action !== this.headAction || outcome.index !== this.headIndex) {
      this.headAction = action;
      this.headIndex = outcome.index;
      this.head = Buffer.from(`{"${action}":{${writtenHead(outcome.index)}`, 'utf8');
    }
    if (outcome.result !== this.result) {
      this.result = outcome.result;
      this.middle = Buffer.from(writtenResultPart(outcome.result), 'latin1');
      this.tail = Buffer.from(`${WRITTEN_TERM},"status":${writeStatus(outcome.result)}}}`, 'latin1');
    }
    const id = outcome.id;
    this.reserve(this.head.length + this.middle.length + this.tail.length + VERSION.length + 6 * id.length + 48);
    this.separate();
    this.copy(this.head);
    if (plainAscii(id)) {
      // generated ids are digits: no escapes, one byte a character
      const buf = this.buf;
      let at = this.at;
      buf[at++] = QUOTE;
      for (let i = 0; i < id.length; i++) buf[at++] = id.charCodeAt(i);
      buf[at++] = QUOTE;
      this.at = at;
    } else {
      this.at += this.buf.write(JSON.stringify(id), this.at, 'utf8');
    }
    this.copy(VERSION);
    this.at = writeDecimal(this.buf, this.at, outcome.version);
    this.copy(this.middle);
    this.at = writeDecimal(this.buf, this.at, Math.max(0, outcome.lid - 1));
    this.copy(this.tail);
  }

  /** Appends an item rendered as JSON text elsewhere (failures). */
  text(item: string): void {
    this.reserve(3 * item.length + 1);
    this.separate();
    this.at += this.buf.write(item, this.at, 'utf8');
  }

  /** The whole answer. */
  finish(tookMs: number, errors: boolean): Buffer {
    const head = Buffer.from(`{"took":${tookMs},"errors":${errors},"items":[`, 'latin1');
    const out = Buffer.allocUnsafe(head.length + this.at + 2);
    head.copy(out, 0);
    this.buf.copy(out, head.length, 0, this.at);
    out[out.length - 2] = 0x5d; // ]
    out[out.length - 1] = 0x7d; // }
    return out;
  }

  private separate(): void {
    if (this.items++ > 0) this.buf[this.at++] = COMMA;
  }

  private copy(bytes: Buffer): void {
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  private reserve(extra: number): void {
    if (this.at + extra <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + extra));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }
}
